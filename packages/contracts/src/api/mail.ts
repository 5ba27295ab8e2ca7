import { z } from 'zod';

/**
 * Transactional e-mail (docs/operations.md, "E-mail"): each message is a reaction to an event,
 * kept in the outbox with its outcome so it is sent once.
 *
 * - `pending`: waiting for its first attempt, or for its next one after a failure (`lastError`);
 * - `sending`: an attempt is under way;
 * - `sent`: the mail server accepted it (or, without `SMTP_URL`, the development mailbox kept it);
 * - `parked`: refused for good (a permanent refusal, or too many failures): nothing more is
 *   tried until an admin retries it;
 * - `erased`: its owner's personal data was erased before it went: it never will.
 */
export const mailStatusSchema = z.enum(['pending', 'sending', 'sent', 'parked', 'erased']);
export type MailStatus = z.infer<typeof mailStatusSchema>;

/** The messages the product sends, and only these (marketing mail would need consent). */
export const mailKindSchema = z.enum([
  'purchase_receipt',
  'subscription_receipt',
  'subscription_renewed',
  'payment_failed',
  'subscription_cancelled',
  'refund_issued',
  'account_deleted',
]);
export type MailKind = z.infer<typeof mailKindSchema>;

/** `GET /api/dev/mail`: one message of the development mailbox (absent in production). */
export const devMailMessageSchema = z.object({
  id: z.string(),
  kind: mailKindSchema,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** The stable `Message-ID` header, the same on every attempt. */
  messageId: z.string(),
  status: mailStatusSchema,
  createdAt: z.string(),
});
export type DevMailMessage = z.infer<typeof devMailMessageSchema>;
export const devMailboxSchema = z.object({ items: z.array(devMailMessageSchema) });
export type DevMailbox = z.infer<typeof devMailboxSchema>;

/** `GET /api/dev/mail/previews`: every template, rendered with sample data. */
export const mailPreviewSchema = z.object({
  kind: mailKindSchema,
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type MailPreview = z.infer<typeof mailPreviewSchema>;
export const mailPreviewsSchema = z.object({ items: z.array(mailPreviewSchema) });

/** A message that failed or was parked, as the admin Projections page lists it. */
export const reactorMessageSchema = z.object({
  id: z.string(),
  kind: z.string(),
  /** Who it is for (the recipient's address), null once their personal data is erased. */
  recipient: z.string().nullable(),
  status: mailStatusSchema,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** When the next attempt is due (null: parked, or not failing). */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ReactorMessage = z.infer<typeof reactorMessageSchema>;

/** A reactor (events in, side effects out) against the log's head, on the Projections page. */
export const reactorStatusSchema = z.object({
  name: z.string(),
  /** Its checkpoint: the last event it reacted to. */
  position: z.string(),
  /** Events after its checkpoint (as for a projection). */
  lagEvents: z.number().int(),
  lagSeconds: z.number(),
  /**
   * Messages waiting (pending or being sent), failing (failed and not sent yet, waiting for
   * another attempt or in it) and parked.
   */
  pending: z.number().int(),
  failing: z.number().int(),
  parked: z.number().int(),
  /** Messages that failed at least once and are not sent yet (failing and parked), newest first, up to 50. */
  problems: z.array(reactorMessageSchema),
});
export type ReactorStatus = z.infer<typeof reactorStatusSchema>;
