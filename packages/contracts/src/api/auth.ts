import { z } from 'zod';
import { text } from './common.ts';

export const devLoginRequestSchema = z.strictObject({
  // Trimmed first, as documented: a padded address is the address.
  email: z
    .string({
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be an e-mail address'),
    })
    .trim()
    .pipe(z.email('must be an e-mail address').max(254, 'must be at most 254 characters')),
  fullName: text().min(1, 'is required').max(200, 'must be at most 200 characters').optional(),
});
export type DevLoginRequest = z.infer<typeof devLoginRequestSchema>;

/** `GET /api/auth/providers`: which sign-in buttons to show. */
export const authProvidersSchema = z.object({
  google: z.boolean(),
  apple: z.boolean(),
  dev: z.boolean(),
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;

/**
 * A `returnUrl` is honoured only when it is a path on this site: it starts with one `/`, has no
 * scheme, host or backslash. Anything else becomes `fallback`.
 */
export const safeReturnUrl = (value: unknown, fallback = '/app'): string => {
  if (typeof value !== 'string' || value.length > 2000) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return fallback;
  // Control characters (tabs, line breaks) could smuggle a host past the checks above.
  if ([...value].some((character) => character.charCodeAt(0) < 0x20)) return fallback;
  try {
    const url = new URL(value, 'http://same.invalid');
    return url.origin === 'http://same.invalid'
      ? `${url.pathname}${url.search}${url.hash}`
      : fallback;
  } catch {
    return fallback;
  }
};
