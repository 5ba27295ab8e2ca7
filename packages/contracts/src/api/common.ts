import { z } from 'zod';

/** The JSON of every error answer. */
export const errorBodySchema = z
  .object({
    error: z.string(),
    message: z.string(),
    fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .loose();
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** Global positions are 64-bit: they travel as decimal strings. */
export const positionSchema = z.string().regex(/^\d+$/);
