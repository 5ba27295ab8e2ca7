import { z } from 'zod';

/**
 * Events of the `reading-{readingId}` stream. A reading is requested (with the spend that pays
 * for it), then generated or failed; a failed reading's refund is settled after its failure; it
 * may be deleted from the library later.
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
    /**
     * Whether the spend had been given back when the failure was recorded. Logs written before
     * the failure came first say true (refunded first) or false (nothing to give back); the saga
     * now always writes false and settles the refund afterwards with `ReadingRefundSettled`.
     */
    refunded: z.boolean(),
  }),
  /**
   * A failed reading's refund is settled: `refunded` true when its spend was given back (the
   * `SpendRefunded` of `credits-{userId}`, by this or an earlier refund), false when there was
   * nothing to give back (the spend never happened, or the account was closed meanwhile).
   */
  ReadingRefundSettled: z.object({
    spendId: z.string(),
    refunded: z.boolean(),
  }),
  ReadingDeleted: z.object({}),
} as const;

type Schemas = typeof readingEventSchemas;
export type ReadingEventType = keyof Schemas;
export type ReadingEvent = {
  [K in ReadingEventType]: { type: K; data: z.infer<Schemas[K]> };
}[ReadingEventType];
