import {
  type Actor,
  type AuditCause,
  type AuditEntry,
  type CreditEvent,
  ERASED_EMAIL,
  ledgerEntryCodeOf,
  ledgerEntryDescription,
} from '@astra/contracts';
import type { MoneyEffect } from './money.ts';

/** What the log says around an event: where it is, when, who and why. */
export interface LoggedEvent {
  position: bigint;
  occurredAt: string;
  actor: Actor | null;
  correlationId: string | null;
}

/**
 * The e-mail a registration names, as the audit shows it: `ERASED_EMAIL` once the user's personal
 * data is erased (the registration's `email` then reads as `""`).
 */
export const shownEmail = (email: string) => (email === '' ? ERASED_EMAIL : email);

/**
 * `user:{id}`, `admin:{e-mail}` (the id when no e-mail is known, or it is erased), `system` or
 * `stripe`.
 */
export const actorLabel = (actor: Actor | null, emailOf: (userId: string) => string | null) => {
  if (!actor) return 'system';
  if (actor.kind !== 'user') return actor.kind;
  if (actor.role !== 'admin') return `user:${actor.userId}`;
  const email = emailOf(actor.userId);
  return `admin:${email && email !== ERASED_EMAIL ? email : actor.userId}`;
};

/** A cause with nothing in it. */
export const emptyCause = (): AuditCause => ({
  checkoutSessionId: null,
  paymentIntentId: null,
  chargeId: null,
  invoiceId: null,
  subscriptionId: null,
  customerId: null,
  stripeEventId: null,
  readingId: null,
  purpose: null,
  appId: null,
  grantId: null,
  spendId: null,
  adjustmentId: null,
  period: null,
  trigger: null,
  reason: null,
  otherIds: null,
});

/** The ids an event's `reference` may hold that have a field of their own. */
const REFERENCE_FIELDS = [
  'checkoutSessionId',
  'paymentIntentId',
  'chargeId',
  'invoiceId',
  'subscriptionId',
  'customerId',
  'stripeEventId',
] as const satisfies readonly (keyof AuditCause)[];
const referenceField = new Set<string>(REFERENCE_FIELDS);

/**
 * What caused an event, each thing in its own typed field, taken from the event's own fields
 * (never parsed out of text): a reason is only ever `reason`, whatever it says.
 */
export const causeFieldsOf = (event: CreditEvent): AuditCause => {
  const cause = emptyCause();
  const withReference = (reference: Record<string, string> | null) => {
    for (const key in reference) {
      if (referenceField.has(key))
        cause[key as (typeof REFERENCE_FIELDS)[number]] = reference[key]!;
      else cause.otherIds = { ...cause.otherIds, [key]: reference[key]! };
    }
  };
  switch (event.type) {
    case 'CreditsGranted':
      withReference(event.data.reference);
      cause.grantId = event.data.grantId;
      break;
    case 'MonthlyCreditsGranted':
      withReference(event.data.reference);
      cause.period = event.data.period;
      cause.trigger = event.data.trigger;
      break;
    case 'PurchaseReversed':
    case 'DisputeOpened':
    case 'DisputeClosed':
      withReference(event.data.reference);
      cause.grantId = event.data.grantId;
      break;
    case 'PaymentRefunded':
      cause.chargeId = event.data.chargeId;
      cause.paymentIntentId = event.data.paymentIntentId;
      cause.invoiceId = event.data.invoiceId ?? null;
      cause.subscriptionId = event.data.subscriptionId ?? null;
      break;
    case 'SubscriptionActivated':
      cause.subscriptionId = event.data.subscriptionId;
      break;
    case 'CreditsSpent':
      // What a spend paid for (only when it names its reading, as the display text says).
      if (event.data.readingId) {
        cause.readingId = event.data.readingId;
        cause.purpose = event.data.purpose;
        cause.appId = event.data.appId;
      }
      cause.spendId = event.data.spendId;
      break;
    case 'SpendRefunded':
      cause.spendId = event.data.spendId;
      cause.reason = event.data.reason;
      break;
    case 'CreditsAdjusted':
      cause.reason = event.data.reason;
      cause.adjustmentId = event.data.adjustmentId ?? null;
      break;
    case 'RolloverForfeited':
      cause.period = event.data.period;
      break;
    case 'SubscriptionCheckoutStarted':
    case 'SubscriptionCheckoutClosed':
      cause.checkoutSessionId = event.data.sessionId;
      break;
    case 'CreditsForfeited':
    case 'CreditAccountClosed':
    case 'SubscriptionCancelled':
    case 'SubscriptionEnded':
      cause.reason = event.data.reason;
      break;
    default:
      break;
  }
  return cause;
};

/** What an event did to its account's balance: the signed change and the balance after it. */
export interface BalanceMove {
  credits: number;
  balanceAfter: number;
}

/** One credit event as the audit and the exports show it. */
export const auditEntryOf = (
  logged: LoggedEvent,
  userId: string,
  event: CreditEvent,
  effect: MoneyEffect,
  balance: BalanceMove,
  emailOf: (userId: string) => string | null,
): AuditEntry => ({
  position: String(logged.position),
  occurredAt: logged.occurredAt,
  userId,
  email: emailOf(userId),
  type: event.type,
  credits: balance.credits,
  balanceAfter: balance.balanceAfter,
  money: effect.cash,
  lotValue: effect.lotValue as AuditEntry['lotValue'],
  adminDeducted: effect.adminDeducted as AuditEntry['adminDeducted'],
  actor: actorLabel(logged.actor, emailOf),
  causeFields: causeFieldsOf(event),
  correlationId: logged.correlationId ?? '',
  description: ledgerEntryDescription(ledgerEntryCodeOf(event)),
});
