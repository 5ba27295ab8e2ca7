import type { CreditEvent } from '@astra/contracts';

/** Stripe and other outside ids that caused an event, and what a spend paid for, for audits. */
export const creditEventReference = (event: CreditEvent): Record<string, string> | null => {
  switch (event.type) {
    case 'CreditsGranted':
    case 'MonthlyCreditsGranted':
    case 'PurchaseReversed':
    case 'DisputeOpened':
    case 'DisputeClosed':
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
