import { createHash } from 'node:crypto';

/**
 * The plain SHA-256 of an address that named mailbox streams before they were keyed by an HMAC
 * (`Keyring.mailboxId`): `privacy:migrate` renames them. Never for new streams: a dictionary of
 * addresses reverses it.
 */
export const legacyEmailKey = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/**
 * Stream names of the ledger (see docs/events.md). A mailbox's streams are named by its
 * `mailboxId`: an HMAC of the normalized address under a key of the server's.
 */
export const streams = {
  user: (userId: string) => `user-${userId}`,
  credits: (userId: string) => `credits-${userId}`,
  email: (mailboxId: string) => `email-${mailboxId}`,
  freeAllotment: (mailboxId: string) => `free-allotment-${mailboxId}`,
  reading: (readingId: string) => `reading-${readingId}`,
  stripe: (stripeEventId: string) => `stripe-${stripeEventId}`,
  feedback: (feedbackId: string) => `feedback-${feedbackId}`,
};

/** The id after a stream's category prefix: `credits-abc` → `abc`. */
export const streamId = (stream: string, category: string) =>
  stream.startsWith(`${category}-`) ? stream.slice(category.length + 1) : null;
