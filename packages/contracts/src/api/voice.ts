import { z } from 'zod';
import { voiceEndReasonSchema, voiceProviderSchema } from '../events/readings.ts';
import { errorBodySchema } from './common.ts';

/** The spec's voice guide words (§2, §4 "Voice session", §5, §8); `{n}` is the reactivation price. */
export const voiceMessages = {
  speak: 'Speak to Voice Guide',
  activate: 'Activate Voice Guide',
  active: 'Voice Guide Active',
  reactivate: (cost: number) => `Reactivate Voice Agent (${cost} credits)`,
  endEarly: 'End Session Early',
  activated: (minutes: number) => `Voice agent activated! ${minutes} minutes remaining.`,
  reactivated: (minutes: number) => `Voice agent reactivated! ${minutes} minutes remaining.`,
  completed: 'Voice session completed',
  celticCrossTimeUp: 'Voice consultation time has ended',
  ended: 'Voice session ended',
  insufficientHint: (balance: number, cost: number) =>
    `Insufficient credits (${balance}/${cost} needed)`,
  insufficient: (cost: number) =>
    `Insufficient credits. You need ${cost} credits to reactivate the voice agent.`,
  deductFailed: 'Failed to deduct credits',
  reactivateFailed: 'Failed to reactivate voice agent',
  updateFailed: 'Failed to update voice session',
  alreadyActive: 'A voice session is already running for this reading.',
  providerFailed:
    'The voice guide could not be reached. Please try again in a moment; nothing was charged.',
  microphone:
    'The voice guide needs your microphone. Allow microphone access for this site in your browser, then try again.',
  noMicrophone: 'No microphone was found. Connect one, or type your questions instead.',
  ledgerCharge: 'Voice guide reactivated',
} as const;

/** A running session, by the server's clock. */
export const voiceSessionViewSchema = z.object({
  sessionId: z.string(),
  provider: voiceProviderSchema,
  startedAt: z.string(),
  endsAt: z.string(),
  secondsLeft: z.number().int().nonnegative(),
  reactivation: z.boolean(),
});
export type VoiceSessionView = z.infer<typeof voiceSessionViewSchema>;

/** `GET /api/readings/:id/voice`: the reading's voice guide as its stream says now. */
export const voiceStatusSchema = z.object({
  readingId: z.string(),
  /** Who carries the next session's conversation (the browser asks for the microphone first). */
  provider: voiceProviderSchema,
  /** The session included in the reading's price was used: the next one is a reactivation. */
  used: z.boolean(),
  active: voiceSessionViewSchema.nullable(),
  /** A session is being started (its charge and connection in flight). */
  starting: z.boolean(),
  reactivations: z.number().int().nonnegative(),
  creditsCharged: z.number().int().nonnegative(),
  secondsUsed: z.number().int().nonnegative(),
  /** What the next session costs: 0 while the included one is unused, else the reactivation price. */
  nextSessionCost: z.number().int().nonnegative(),
  sessionSeconds: z.number().int().positive(),
  reactivationCost: z.number().int().nonnegative(),
});
export type VoiceStatus = z.infer<typeof voiceStatusSchema>;

/** What the browser needs to hold the conversation; the reading's text is the guide's context. */
export const voiceConnectionSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('elevenlabs'),
    /** Short-lived, asked for this session with the server's key (which never reaches the browser). */
    signedUrl: z.string(),
    agentId: z.string(),
    dynamicVariables: z.object({ first_name: z.string(), reading_result_id: z.string() }),
    context: z.string(),
  }),
  z.object({
    provider: z.literal('offline'),
    dynamicVariables: z.object({ first_name: z.string(), reading_result_id: z.string() }),
    context: z.string(),
  }),
]);
export type VoiceConnection = z.infer<typeof voiceConnectionSchema>;

/** `POST /api/readings/:id/voice/sessions`: no fields (an empty object or no body). */
export const voiceSessionRequestSchema = z.strictObject({});

/** `201` of `POST /api/readings/:id/voice/sessions`. */
export const voiceSessionStartedSchema = z.object({
  session: voiceSessionViewSchema,
  connection: voiceConnectionSchema,
  voice: voiceStatusSchema,
  remainingCredits: z.number().int(),
  message: z.string(),
});
export type VoiceSessionStarted = z.infer<typeof voiceSessionStartedSchema>;

/** `POST /api/readings/:id/voice/sessions/:sessionId/end`. `time_up` is believed near the end only. */
export const voiceSessionEndRequestSchema = z.strictObject({ reason: voiceEndReasonSchema });
export const voiceSessionEndedSchema = z.object({
  /** As the server recorded it (an early report of `time_up` is an early end). */
  reason: voiceEndReasonSchema,
  secondsUsed: z.number().int().nonnegative(),
  voice: voiceStatusSchema,
  /** Credits after a never-connected reactivation was given back. */
  remainingCredits: z.number().int(),
  message: z.string(),
});
export type VoiceSessionEnded = z.infer<typeof voiceSessionEndedSchema>;

/** The voice guide's price list, in `GET /api/apps` and `GET /api/pricing`. */
export const voicePricingSchema = z.object({
  sessionSeconds: z.number().int().positive(),
  reactivationCost: z.number().int().nonnegative(),
});
export type VoicePricing = z.infer<typeof voicePricingSchema>;

/** `409 voice_session_active`: the running (or starting) session of the reading. */
export const voiceSessionActiveErrorSchema = errorBodySchema.extend({
  error: z.literal('voice_session_active'),
  sessionId: z.string(),
  phase: z.enum(['requested', 'active']),
  endsAt: z.string().nullable(),
});
