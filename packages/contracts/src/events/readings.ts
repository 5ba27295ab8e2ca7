import { z } from 'zod';
import { personal } from './personal.ts';

/** Why a voice session ended: the clock, the user, the page left, or a connection never made. */
export const voiceEndReasonSchema = z.enum(['time_up', 'ended_early', 'left', 'connect_failed']);
export type VoiceEndReason = z.infer<typeof voiceEndReasonSchema>;
export const voiceFailureReasonSchema = z.enum([
  'insufficient_credits',
  'spend_refused',
  'provider_failed',
  'interrupted',
]);
export type VoiceFailureReason = z.infer<typeof voiceFailureReasonSchema>;
/** Who carries a session's conversation: ElevenLabs Agents, or the offline guide in the browser. */
export const voiceProviderSchema = z.enum(['elevenlabs', 'offline']);
export type VoiceProvider = z.infer<typeof voiceProviderSchema>;

/**
 * Events of the `reading-{readingId}` stream. A reading is requested (with the spend that pays
 * for it), then generated or failed; a failed reading's refund is settled after its failure; it
 * may be deleted from the library later. A delivered reading holds its voice sessions: each is
 * requested (claiming the reading's one slot, with the reactivation spend that pays for it, if
 * any), then started or failed, then ended; a paid session that failed or never connected has
 * its refund settled after that is recorded.
 */
export const readingEventSchemas = {
  ReadingRequested: z.object({
    readingId: z.string(),
    userId: z.string(),
    appId: z.number().int(),
    appName: z.string(),
    /** The form as the user sent it (validated); `{}` once erased. */
    input: personal(z.record(z.string(), z.unknown()), {}),
    firstName: personal(z.string().nullable(), null),
    question: personal(z.string().nullable(), null),
    creditsCharged: z.number().int().nonnegative(),
    /** The `CreditsSpent` of `credits-{userId}` that pays for it (a refund names it). */
    spendId: z.string(),
  }),
  ReadingGenerated: z.object({
    /** The contract's `result` object of this reading type; `{}` once erased. */
    result: personal(z.record(z.string(), z.unknown()), {}),
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
  VoiceSessionRequested: z.object({
    sessionId: z.string(),
    /** A later session of the reading: paid by the `CreditsSpent` (voice_reactivation) `spendId`. */
    reactivation: z.boolean(),
    spendId: z.string().nullable(),
    creditsCharged: z.number().int().nonnegative(),
  }),
  VoiceSessionStarted: z.object({
    sessionId: z.string(),
    provider: voiceProviderSchema,
    startedAt: z.iso.datetime({ offset: true }),
    /** The server's clock ends the session here, whatever the browser says. */
    endsAt: z.iso.datetime({ offset: true }),
  }),
  /**
   * A requested session that never started. Its reactivation, if paid, is owed back, unless the
   * spend itself was refused (`insufficient_credits`, `spend_refused`: nothing was spent).
   */
  VoiceSessionFailed: z.object({
    sessionId: z.string(),
    reason: voiceFailureReasonSchema,
  }),
  VoiceSessionEnded: z.object({
    sessionId: z.string(),
    reason: voiceEndReasonSchema,
    endedAt: z.iso.datetime({ offset: true }),
    secondsUsed: z.number().int().nonnegative(),
  }),
  /** A failed or never-connected paid session's refund is settled (as `ReadingRefundSettled`). */
  VoiceRefundSettled: z.object({
    sessionId: z.string(),
    spendId: z.string(),
    refunded: z.boolean(),
  }),
} as const;

type Schemas = typeof readingEventSchemas;
export type ReadingEventType = keyof Schemas;
export type ReadingEvent = {
  [K in ReadingEventType]: { type: K; data: z.infer<Schemas[K]> };
}[ReadingEventType];
