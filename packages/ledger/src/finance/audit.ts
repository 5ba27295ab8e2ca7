import type { Actor, AuditEntry, CreditEvent } from '@astra/contracts';
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

/** `key=value` pairs, `; ` apart, in a fixed order (the export's bytes must not vary). */
export const causeOf = (event: CreditEvent): string =>
  withPairs(withPairs('', creditEventReference(event)), causeDetails(event));

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
  actor: actorLabel(logged.actor, emailOf),
  cause: causeOf(event),
  correlationId: logged.correlationId ?? '',
  description: describeCreditEvent(event),
});
