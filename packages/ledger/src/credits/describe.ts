import { type CreditEvent, formatMoney } from '@astra/contracts';
import { longDate } from '../dates.ts';

const refundReasons: Record<string, string> = {
  generation_failed: 'the reading could not be generated',
  voice_failed: 'the voice guide could not be started',
  interrupted: 'the reading was interrupted',
};

/** One line telling a person what a ledger event did to their credits. */
export const describeCreditEvent = (event: CreditEvent): string => {
  switch (event.type) {
    case 'CreditAccountOpened':
      return 'Credit account opened';
    case 'FreeCreditsGranted':
      return 'Free welcome credits';
    case 'CreditsGranted':
      return event.data.reason;
    case 'SubscriptionActivated':
      return `Subscribed to ${event.data.tierName} (${event.data.creditsPerMonth} credits a month)`;
    case 'RolloverForfeited':
      return `Unused subscription credits above one month's ${event.data.monthlyCredits} expired at renewal (${event.data.period}); purchased and free credits are kept`;
    case 'MonthlyCreditsGranted':
      return `${event.data.tierName} monthly credits for ${event.data.period} (${event.data.rolledOver} subscription credits rolled over)`;
    case 'CreditsSpent':
      return event.data.description;
    case 'SpendRefunded':
      return `Refund: ${refundReasons[event.data.reason] ?? event.data.reason}`;
    case 'CreditsAdjusted':
      return event.data.reason;
    case 'PurchaseReversed':
      return event.data.shortfall > 0
        ? `Purchase refunded: ${event.data.amount} credits taken back, ${event.data.shortfall} already spent`
        : `Purchase refunded: ${event.data.amount} credits taken back`;
    case 'PurchaseRefundPending':
      return 'Refund received; its purchase is taken back as soon as it is recorded';
    case 'PaymentRefunded':
      return `Payment refunded: ${formatMoney(event.data.amountMinor, event.data.currency)}`;
    case 'SubscriptionCheckoutStarted':
      return 'Subscription checkout opened';
    case 'SubscriptionCheckoutClosed':
      return `Subscription checkout ${event.data.outcome}`;
    case 'SubscriptionPlanChanged':
      return `Plan changed to ${event.data.tierName} (${event.data.creditsPerMonth} credits a month) from ${longDate(event.data.effectiveFrom)}`;
    case 'SubscriptionCancelled':
      return `Subscription cancelled; access continues until ${longDate(event.data.accessUntil)}`;
    case 'SubscriptionEnded':
      return 'Subscription ended';
    case 'CreditsForfeited':
      return 'Remaining credits forfeited: account deleted';
    case 'CreditAccountClosed':
      return 'Credit account closed';
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/** Stripe and other outside ids that caused an event, and what a spend paid for, for audits. */
export const creditEventReference = (event: CreditEvent): Record<string, string> | null => {
  switch (event.type) {
    case 'CreditsGranted':
    case 'MonthlyCreditsGranted':
    case 'PurchaseReversed':
      return event.data.reference;
    case 'PaymentRefunded':
      return {
        chargeId: event.data.chargeId,
        paymentIntentId: event.data.paymentIntentId,
        // A subscription month's refund names its invoice (its credits are kept).
        ...(event.data.invoiceId ? { invoiceId: event.data.invoiceId } : {}),
        ...(event.data.subscriptionId ? { subscriptionId: event.data.subscriptionId } : {}),
      };
    case 'SubscriptionActivated':
      return event.data.subscriptionId ? { subscriptionId: event.data.subscriptionId } : null;
    // What a spend paid for: its reading (the history links it) and whether it was a reading
    // or a voice guide reactivation.
    case 'CreditsSpent': {
      const { readingId, purpose, appId } = event.data;
      if (!readingId) return null;
      return appId === null ? { readingId, purpose } : { readingId, purpose, appId: String(appId) };
    }
    default:
      return null;
  }
};
