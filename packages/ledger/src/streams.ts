import { createHash } from 'node:crypto';

/** Stream names of the ledger (see docs/events.md). */
export const emailKey = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export const streams = {
  user: (userId: string) => `user-${userId}`,
  credits: (userId: string) => `credits-${userId}`,
  email: (email: string) => `email-${emailKey(email)}`,
  freeAllotment: (email: string) => `free-allotment-${emailKey(email)}`,
  reading: (readingId: string) => `reading-${readingId}`,
  stripe: (stripeEventId: string) => `stripe-${stripeEventId}`,
  feedback: (feedbackId: string) => `feedback-${feedbackId}`,
};

/** The id after a stream's category prefix: `credits-abc` → `abc`. */
export const streamId = (stream: string, category: string) =>
  stream.startsWith(`${category}-`) ? stream.slice(category.length + 1) : null;
