import type { z } from 'zod';
import { notFound } from './errors.ts';

/**
 * A path id checked against its shape before it reaches SQL or a gateway: an id of another shape
 * (a NUL, invalid UTF-8, a number where a UUID belongs) names nothing, so it is the route's 404,
 * never a database error.
 */
export function pathId(schema: z.ZodType<string>, value: unknown, message: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw notFound(message);
  return parsed.data;
}
