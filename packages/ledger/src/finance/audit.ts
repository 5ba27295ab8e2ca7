import type { Actor, AuditCause, AuditEntry, CreditEvent } from '@astra/contracts';
import { creditEventReference, describeCreditEvent } from '../credits/describe.ts';
import type { MoneyEffect } from './money.ts';

/** What the log says around an event: where it is, when, who and why. */
export interface LoggedEvent {
  position: bigint;
  occurredAt: string;
  actor: Actor | null;
  correlationId: string | null;
}

/** `user:{id}`, `admin:{e-mail}` (the id when no e-mail is known), `system` or `stripe`. */
export const actorLabel = (actor: Actor | null, emailOf: (userId: string) => string | null) => {
  if (!actor) return 'system';
  if (actor.kind !== 'user') return actor.kind;
  return actor.role === 'admin'
    ? `admin:${emailOf(actor.userId) ?? actor.userId}`
    : `user:${actor.userId}`;
};

/** What caused an event, beyond its outside ids: the reason an admin or a refund gave. */
const causeDetails = (event: CreditEvent): Record<string, string> => {
  switch (event.type) {
    case 'CreditsAdjusted':
      return {
        reason: event.data.reason,
        ...(event.data.adjustmentId ? { adjustmentId: event.data.adjustmentId } : {}),
      };
    case 'CreditsGranted':
      return { grantId: event.data.grantId };
    case 'MonthlyCreditsGranted':
      return { period: event.data.period, trigger: event.data.trigger };
    case 'CreditsSpent':
      return { spendId: event.data.spendId };
    case 'SpendRefunded':
      return { spendId: event.data.spendId, reason: event.data.reason };
    case 'RolloverForfeited':
      return { period: event.data.period };
    case 'PurchaseReversed':
      return { grantId: event.data.grantId };
    case 'CreditsForfeited':
    case 'CreditAccountClosed':
      return { reason: event.data.reason };
    case 'SubscriptionCheckoutStarted':
    case 'SubscriptionCheckoutClosed':
      return { checkoutSessionId: event.data.sessionId };
    case 'SubscriptionCancelled':
    case 'SubscriptionEnded':
      return { reason: event.data.reason };
    default:
      return {};
  }
};

/** `cause` with the record's `key=value` pairs added, `; ` apart. */
const withPairs = (cause: string, record: Record<string, string> | null) => {
  for (const key in record) cause += `${cause ? '; ' : ''}${key}=${record[key]}`;
  return cause;
};

/**
 * `key=value` pairs, `; ` apart, in a fixed order: for people to read (the admin screens). Nothing
 * is escaped, so a reason can look like more pairs: read `causeFieldsOf`, never this text.
 */
export const causeOf = (event: CreditEvent): string =>
  withPairs(withPairs('', creditEventReference(event)), causeDetails(event));

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
  cause: causeOf(event),
  causeFields: causeFieldsOf(event),
  correlationId: logged.correlationId ?? '',
  description: describeCreditEvent(event),
});
