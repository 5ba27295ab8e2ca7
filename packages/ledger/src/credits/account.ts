import type { CreditEvent, CreditEventOf, PaymentTax } from '@astra/contracts';
import { balanceChange, grantedBy } from './balance.ts';
import { type CreditLots, type LotTake, lotMovesOf, lotsAfter } from './lots.ts';

export type { CreditEvent } from '@astra/contracts';

export type SubscriptionStatus = 'active' | 'cancelled';

export interface Subscription {
  tierId: number;
  tierName: string;
  creditsPerMonth: number;
  subscriptionId: string | null;
  status: SubscriptionStatus;
  nextRenewalDate: string;
  lastRefreshDate: string | null;
}

export interface RecentSpend {
  spendId: string;
  amount: number;
  refunded: boolean;
  /** The lots it took its credits from: a refund gives them back there. */
  taken: readonly LotTake[];
}

/** Refunds follow their spend closely (a failed generation); older spends are final. */
export const REFUNDABLE_SPENDS = 100;

/** A credit pack bought, as far as a refund of its payment is concerned. */
export interface Purchase {
  grantId: string;
  paymentIntentId: string | null;
  granted: number;
  /** Credits its refunds have reversed so far, counting what was already spent (shortfall). */
  reversed: number;
}

export type PendingRefund = CreditEventOf<'PurchaseRefundPending'>['data'];

/** A payment that recorded its tax: what was paid (gross) and the tax in it, for its refunds. */
export interface TaxedPayment {
  paidMinor: number;
  tax: PaymentTax;
}

/** A dispute of a payment, by Stripe's dispute id: while open, its pack's credits are on hold. */
export interface Dispute {
  /** The pack the disputed payment bought (null: none of this account's). */
  grantId: string | null;
  open: boolean;
  /** Credits it took back once lost (with what was spent of them, the shortfall); 0 otherwise. */
  taken?: number;
}

export interface PendingCheckout {
  sessionId: string;
  url: string;
  tierId: number;
  expiresAt: string;
}

export interface CreditAccount {
  status: 'unopened' | 'open' | 'closed';
  userId: string | null;
  /** Credits that can be spent now (`remaining_credits`): the sum of the lots. */
  balance: number;
  /** Every credit ever granted (`credits`, "total earned"). */
  totalGranted: number;
  /** The balance by source, in the order they were granted. */
  lots: CreditLots;
  freeAllotmentGranted: boolean;
  /** Grants other than purchases, by id (a purchase's id is its key in `purchases`). */
  grantIds: ReadonlySet<string>;
  /** Admin adjustments made, by id: each is made once. */
  adjustmentIds: ReadonlySet<string>;
  /**
   * Credit packs bought, by grant id, in the order they were bought (a map: a long account holds
   * thousands, copied at every pack).
   */
  purchases: ReadonlyMap<string, Purchase>;
  /** Refunds that came before their purchase, by payment intent. */
  pendingRefunds: Readonly<Record<string, PendingRefund>>;
  /**
   * The highest refunded total (minor units) recorded for each payment intent: a refund records
   * only money above it, so a redelivery records nothing. Old refunds (before `PaymentRefunded`)
   * count by the refund their reversal or pending refund names.
   */
  refundedMinor: Readonly<Record<string, number>>;
  /**
   * Payments that recorded their tax, by the id their refunds name: a pack's payment intent, a
   * subscription month's invoice. A refund's share of the tax is worked out from it.
   */
  paymentTaxes: Readonly<Record<string, TaxedPayment>>;
  recentSpends: readonly RecentSpend[];
  subscription: Subscription | null;
  /** An open subscription checkout: no second one while it runs. */
  pendingCheckout: PendingCheckout | null;
  /** Months granted, as `subscriptionId:YYYY-MM`: each subscription's month is granted once. */
  grantedMonths: readonly string[];
  /** Subscriptions that ended: a late event never brings one back. */
  endedSubscriptions: readonly string[];
  /** Disputes of this account's payments, by Stripe's dispute id. */
  disputes: Readonly<Record<string, Dispute>>;
}

/** Whether the grant of this id was made (each grant is made once). */
export const wasGranted = (state: CreditAccount, grantId: string) =>
  state.grantIds.has(grantId) || state.purchases.has(grantId);

/** The key of a subscription's month in `grantedMonths`. */
export const monthKey = (subscriptionId: string | null, period: string) =>
  `${subscriptionId ?? '-'}:${period}`;

export const initialCreditAccount = (): CreditAccount => ({
  status: 'unopened',
  userId: null,
  balance: 0,
  totalGranted: 0,
  lots: [],
  freeAllotmentGranted: false,
  grantIds: new Set(),
  adjustmentIds: new Set(),
  purchases: new Map(),
  pendingRefunds: {},
  refundedMinor: {},
  paymentTaxes: {},
  recentSpends: [],
  subscription: null,
  pendingCheckout: null,
  grantedMonths: [],
  endedSubscriptions: [],
  disputes: {},
});

/** The lots on hold: the packs whose payments are disputed, while the dispute is open. */
export const lotsOnHold = (state: CreditAccount): ReadonlySet<string> => {
  const held = new Set<string>();
  for (const dispute of Object.values(state.disputes))
    if (dispute.open && dispute.grantId) held.add(dispute.grantId);
  return held;
};

/** The refunded totals by payment intent, with a refund of `refundedMinor` recorded. */
const withRefunded = (
  recorded: Readonly<Record<string, number>>,
  paymentIntentId: string,
  refundedMinor: number,
): Readonly<Record<string, number>> =>
  refundedMinor > (recorded[paymentIntentId] ?? 0)
    ? { ...recorded, [paymentIntentId]: refundedMinor }
    : recorded;

/** The payment taxes with a grant's payment added, when it recorded its tax and names its id. */
const withPaymentTax = (
  taxes: Readonly<Record<string, TaxedPayment>>,
  payment: CreditEventOf<'CreditsGranted'>['data']['payment'],
  id: string | undefined,
): Readonly<Record<string, TaxedPayment>> =>
  payment?.tax && id
    ? { ...taxes, [id]: { paidMinor: payment.amountMinor, tax: payment.tax } }
    : taxes;

/**
 * A change to what `evolve` makes of the events (or to `CreditAccount`) takes a new
 * `CREDIT_ACCOUNT_SNAPSHOT_VERSION` (`snapshot.ts`): snapshots of the old fold are then ignored.
 */
export const evolve = (state: CreditAccount, event: CreditEvent): CreditAccount => {
  const next: CreditAccount = {
    ...state,
    balance: state.balance + balanceChange(event),
    totalGranted: state.totalGranted + grantedBy(event),
    lots: lotsAfter(state.lots, event),
  };
  switch (event.type) {
    case 'CreditAccountOpened':
      return { ...next, status: 'open', userId: event.data.userId };
    case 'FreeCreditsGranted':
      return { ...next, freeAllotmentGranted: true };
    case 'CreditsGranted':
      return event.data.kind === 'purchase'
        ? {
            ...next,
            purchases: new Map(state.purchases).set(event.data.grantId, {
              grantId: event.data.grantId,
              paymentIntentId: event.data.reference?.paymentIntentId ?? null,
              granted: event.data.amount,
              reversed: 0,
            }),
            paymentTaxes: withPaymentTax(
              state.paymentTaxes,
              event.data.payment,
              event.data.reference?.paymentIntentId,
            ),
          }
        : { ...next, grantIds: new Set(state.grantIds).add(event.data.grantId) };
    case 'PurchaseReversed': {
      const purchase = state.purchases.get(event.data.grantId);
      if (!purchase) return next;
      // An old reversal (no `refund`) took the whole purchase back.
      const reversed = event.data.refund
        ? purchase.reversed + event.data.amount + event.data.shortfall
        : purchase.granted;
      const pendingRefunds = { ...state.pendingRefunds };
      if (purchase.paymentIntentId) delete pendingRefunds[purchase.paymentIntentId];
      return {
        ...next,
        pendingRefunds,
        refundedMinor: event.data.refund
          ? withRefunded(
              state.refundedMinor,
              event.data.refund.paymentIntentId,
              event.data.refund.refundedMinor,
            )
          : // An old whole reversal: all of the payment went back (how much it does not say).
            purchase.paymentIntentId
            ? withRefunded(state.refundedMinor, purchase.paymentIntentId, Number.POSITIVE_INFINITY)
            : state.refundedMinor,
        purchases: new Map(state.purchases).set(purchase.grantId, { ...purchase, reversed }),
      };
    }
    case 'PurchaseRefundPending':
      return {
        ...next,
        pendingRefunds: { ...state.pendingRefunds, [event.data.paymentIntentId]: event.data },
        refundedMinor: withRefunded(
          state.refundedMinor,
          event.data.paymentIntentId,
          event.data.refundedMinor,
        ),
      };
    case 'DisputeOpened':
      return {
        ...next,
        disputes: {
          ...state.disputes,
          [event.data.disputeId]: { grantId: event.data.grantId, open: true },
        },
      };
    case 'DisputeClosed': {
      const purchase = event.data.grantId ? state.purchases.get(event.data.grantId) : undefined;
      const reversed = event.data.amount + event.data.shortfall;
      return {
        ...next,
        disputes: {
          ...state.disputes,
          [event.data.disputeId]: { grantId: event.data.grantId, open: false, taken: reversed },
        },
        purchases:
          purchase && reversed
            ? new Map(state.purchases).set(purchase.grantId, {
                ...purchase,
                reversed: purchase.reversed + reversed,
              })
            : state.purchases,
      };
    }
    case 'PaymentRefunded':
      return {
        ...next,
        refundedMinor: withRefunded(
          state.refundedMinor,
          event.data.paymentIntentId,
          event.data.refundedMinor,
        ),
      };
    case 'SubscriptionCheckoutStarted':
      return { ...next, pendingCheckout: event.data };
    case 'SubscriptionCheckoutClosed':
      return state.pendingCheckout?.sessionId === event.data.sessionId
        ? { ...next, pendingCheckout: null }
        : next;
    case 'SubscriptionPlanChanged':
      return {
        ...next,
        subscription: state.subscription && {
          ...state.subscription,
          tierId: event.data.tierId,
          tierName: event.data.tierName,
          creditsPerMonth: event.data.creditsPerMonth,
        },
      };
    case 'SubscriptionActivated':
      return {
        ...next,
        pendingCheckout: null,
        subscription: {
          tierId: event.data.tierId,
          tierName: event.data.tierName,
          creditsPerMonth: event.data.creditsPerMonth,
          subscriptionId: event.data.subscriptionId,
          status: 'active',
          nextRenewalDate: event.data.nextRenewalDate,
          lastRefreshDate: state.subscription?.lastRefreshDate ?? null,
        },
      };
    case 'MonthlyCreditsGranted':
      return {
        ...next,
        grantedMonths: [
          ...state.grantedMonths,
          monthKey(state.subscription?.subscriptionId ?? null, event.data.period),
        ],
        paymentTaxes: withPaymentTax(
          state.paymentTaxes,
          event.data.payment,
          event.data.reference?.invoiceId,
        ),
        subscription: state.subscription && {
          ...state.subscription,
          nextRenewalDate: event.data.nextRenewalDate,
          lastRefreshDate: event.data.grantedOn,
        },
      };
    case 'SubscriptionCancelled':
      return {
        ...next,
        subscription: state.subscription && { ...state.subscription, status: 'cancelled' },
      };
    case 'SubscriptionEnded':
      return {
        ...next,
        subscription: null,
        endedSubscriptions: state.subscription?.subscriptionId
          ? [...state.endedSubscriptions, state.subscription.subscriptionId]
          : state.endedSubscriptions,
      };
    case 'CreditsSpent':
      return {
        ...next,
        recentSpends: [
          ...state.recentSpends.slice(-(REFUNDABLE_SPENDS - 1)),
          {
            spendId: event.data.spendId,
            amount: event.data.amount,
            refunded: false,
            taken: lotMovesOf(state.lots, event).taken,
          },
        ],
      };
    case 'SpendRefunded':
      return {
        ...next,
        recentSpends: state.recentSpends.map((spend) =>
          spend.spendId === event.data.spendId ? { ...spend, refunded: true } : spend,
        ),
      };
    case 'CreditAccountClosed':
      return { ...next, status: 'closed', subscription: null };
    case 'CreditsAdjusted':
      return event.data.adjustmentId
        ? { ...next, adjustmentIds: new Set(state.adjustmentIds).add(event.data.adjustmentId) }
        : next;
    case 'RolloverForfeited':
    case 'CreditsForfeited':
      return next;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};
