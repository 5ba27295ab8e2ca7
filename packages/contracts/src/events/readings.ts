import { z } from 'zod';

/**
 * Events of the `reading-{readingId}` stream. A reading is requested (with the spend that pays
 * for it), then generated or failed (with or without a refund); it may be deleted from the
 * library later.
 */
export const readingEventSchemas = {
  ReadingRequested: z.object({
    readingId: z.string(),
    userId: z.string(),
    appId: z.number().int(),
    appName: z.string(),
    /** The form as the user sent it (validated). */
    input: z.record(z.string(), z.unknown()),
    firstName: z.string().nullable(),
    question: z.string().nullable(),
    creditsCharged: z.number().int().nonnegative(),
    /** The `CreditsSpent` of `credits-{userId}` that pays for it (a refund names it). */
    spendId: z.string(),
  }),
  ReadingGenerated: z.object({
    /** The contract's `result` object of this reading type. */
    result: z.record(z.string(), z.unknown()),
    /** Which narrative writer wrote it: 'openai:<model>' or 'offline'. */
    writer: z.string(),
  }),
  ReadingFailed: z.object({
    reason: z.enum(['insufficient_credits', 'generation_failed', 'interrupted']),
    refunded: z.boolean(),
  }),
  ReadingDeleted: z.object({}),
} as const;

type Schemas = typeof readingEventSchemas;
export type ReadingEventType = keyof Schemas;
export type ReadingEvent = {
  [K in ReadingEventType]: { type: K; data: z.infer<Schemas[K]> };
}[ReadingEventType];
