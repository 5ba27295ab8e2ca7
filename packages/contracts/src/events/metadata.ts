import { z } from 'zod';

/** Who caused an event: a user (with the role they acted in), the system, or Stripe. */
export const actorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string(), role: z.enum(['user', 'admin']) }),
  z.object({ kind: z.literal('system') }),
  z.object({ kind: z.literal('stripe') }),
]);
export type Actor = z.infer<typeof actorSchema>;

/** Metadata every event carries, next to its id and stream position. */
export const eventMetadataSchema = z.object({
  occurredAt: z.iso.datetime(),
  actor: actorSchema,
  correlationId: z.string(),
  causationId: z.string().nullable(),
  schemaVersion: z.number().int().positive(),
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/**
 * The version of the payloads this code writes. Older events are upcast when read (see
 * `decodeEvent`); 2: `UserRoleChanged.source` is required.
 */
export const SCHEMA_VERSION = 2;
