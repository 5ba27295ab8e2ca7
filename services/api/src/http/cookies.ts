import type { Request } from 'express';

/** The value of one cookie the request carries (decoded), or undefined. */
export const cookieFrom = (req: Request, name: string) => {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
};
