import type { MailKind, MailStatus } from '@astra/contracts';

/**
 * What each message is, for a person reading the mailbox. The record's type makes a kind the
 * server sends without a name here a compile error.
 */
export const MAIL_KIND_LABEL: Record<MailKind, string> = {
  purchase_receipt: 'Purchase receipt',
  subscription_receipt: 'Subscription receipt',
  subscription_renewed: 'Subscription renewed',
  payment_failed: 'Payment failed',
  subscription_cancelled: 'Subscription cancelled',
  refund_issued: 'Refund issued',
  account_deleted: 'Account deleted',
};

export const mailKindLabel = (kind: string) =>
  MAIL_KIND_LABEL[kind as MailKind] ?? `Other message (${kind})`;

export const MAIL_STATUS_PALETTE: Record<MailStatus, string> = {
  pending: 'orange',
  sending: 'blue',
  sent: 'green',
  parked: 'red',
  erased: 'gray',
};

/** Each status in a sentence (the badge's title). */
export const MAIL_STATUS_HELP: Record<MailStatus, string> = {
  pending: 'Waiting for its first attempt, or for the next one after a failure',
  sending: 'An attempt is under way',
  sent: 'Delivered (here: kept by the development mailbox)',
  parked: 'Refused for good: nothing more is tried until an admin retries it',
  erased: "Its owner's personal data was erased before it went: it never will",
};
