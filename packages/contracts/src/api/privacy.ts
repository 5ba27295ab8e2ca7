import { z } from 'zod';
import {
  voiceEndReasonSchema,
  voiceFailureReasonSchema,
  voiceProviderSchema,
} from '../events/readings.ts';
import { auditCauseSchema, auditEntrySchema } from './finance.ts';
import { mailKindSchema, mailStatusSchema } from './mail.ts';
import { meSchema } from './me.ts';
import { readingViewSchema } from './readings.ts';

/** Names the shape of `GET /api/me/export`, so a reader of a saved file knows what it holds. */
export const PERSONAL_DATA_EXPORT_FORMAT = 'astra-personal-data/1';

/** Money Stripe took (`payment`) or gave back (`refund`), with Stripe's ids; minor units. */
export const paymentReferencesSchema = auditCauseSchema.pick({
  grantId: true,
  checkoutSessionId: true,
  paymentIntentId: true,
  chargeId: true,
  invoiceId: true,
  subscriptionId: true,
  customerId: true,
});

export const exportedPaymentSchema = z.object({
  occurredAt: z.string(),
  kind: z.enum(['payment', 'refund']),
  amountMinor: z.number().int().nonnegative(),
  currency: z.string(),
  /** The credit event that recorded it (`CreditsGranted`, `MonthlyCreditsGranted`, `PaymentRefunded`). */
  eventType: z.string(),
  ...paymentReferencesSchema.shape,
});
export type ExportedPayment = z.infer<typeof exportedPaymentSchema>;

/** One voice session of a reading, as its stream recorded it (null: not reached). */
export const exportedVoiceSessionSchema = z.object({
  sessionId: z.string(),
  requestedAt: z.string(),
  reactivation: z.boolean(),
  creditsCharged: z.number().int().nonnegative(),
  provider: voiceProviderSchema.nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  endReason: voiceEndReasonSchema.nullable(),
  failureReason: voiceFailureReasonSchema.nullable(),
  secondsUsed: z.number().int().nonnegative().nullable(),
});
export type ExportedVoiceSession = z.infer<typeof exportedVoiceSessionSchema>;

/** A reading with its inputs and texts, whatever its status (deleted from the library too). */
export const exportedReadingSchema = readingViewSchema.extend({
  status: z.string(),
  voiceSessions: z.array(exportedVoiceSessionSchema),
});
export type ExportedReading = z.infer<typeof exportedReadingSchema>;

export const exportedFeedbackSchema = z.object({
  feedbackId: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ExportedFeedback = z.infer<typeof exportedFeedbackSchema>;

/** An e-mail the app sent (or is to send) them, as the outbox holds it. */
export const exportedMessageSchema = z.object({
  kind: mailKindSchema,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: mailStatusSchema,
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type ExportedMessage = z.infer<typeof exportedMessageSchema>;

/**
 * `GET /api/me/export`: everything held about the signed-in user (right of access and
 * portability). `creditEvents`: every event of their credit stream, oldest first, with its money;
 * `payments`: those that moved money, spelled out; `messages`: the e-mails whose text is still
 * kept (30 days after sending).
 */
export const personalDataExportSchema = z.object({
  format: z.literal(PERSONAL_DATA_EXPORT_FORMAT),
  exportedAt: z.string(),
  profile: meSchema,
  creditEvents: z.array(auditEntrySchema),
  payments: z.array(exportedPaymentSchema),
  readings: z.array(exportedReadingSchema),
  feedback: z.array(exportedFeedbackSchema),
  messages: z.array(exportedMessageSchema),
});
export type PersonalDataExport = z.infer<typeof personalDataExportSchema>;
