import type { CreditEvent } from '@astra/contracts';

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
}

/** Refunds follow their spend closely (a failed generation); older spends are final. */
export const REFUNDABLE_SPENDS = 100;

export interface CreditAccount {
  status: 'unopened' | 'open' | 'closed';
  userId: string | null;
  /** Credits that can be spent now (`remaining_credits`). */
  balance: number;
  /** Every credit ever granted (`credits`, "total earned"). */
  totalGranted: number;
  freeAllotmentGranted: boolean;
  grantIds: ReadonlySet<string>;
  /** Grant amounts still open to a purchase reversal, by grant id. */
  purchases: Readonly<Record<string, number>>;
  recentSpends: readonly RecentSpend[];
  subscription: Subscription | null;
  /** Months granted, as `subscriptionId:YYYY-MM`: each subscription's month is granted once. */
  grantedMonths: readonly string[];
  /** Subscriptions that ended: a late event never brings one back. */
  endedSubscriptions: readonly string[];
}

/** The key of a subscription's month in `grantedMonths`. */
export const monthKey = (subscriptionId: string | null, period: string) =>
  `${subscriptionId ?? '-'}:${period}`;

export const initialCreditAccount = (): CreditAccount => ({
  status: 'unopened',
  userId: null,
  balance: 0,
  totalGranted: 0,
  freeAllotmentGranted: false,
  grantIds: new Set(),
  purchases: {},
  recentSpends: [],
  subscription: null,
  grantedMonths: [],
  endedSubscriptions: [],
});

/** The signed change an event makes to the balance. */
export const balanceChange = (event: CreditEvent): number => {
  switch (event.type) {
    case 'FreeCreditsGranted':
    case 'CreditsGranted':
    case 'MonthlyCreditsGranted':
    case 'SpendRefunded':
      return event.data.amount;
    case 'CreditsAdjusted':
      return event.data.amount;
    case 'CreditsSpent':
    case 'RolloverForfeited':
    case 'CreditsForfeited':
    case 'PurchaseReversed':
      return -event.data.amount;
    case 'CreditAccountOpened':
    case 'SubscriptionActivated':
    case 'SubscriptionCancelled':
    case 'SubscriptionEnded':
    case 'CreditAccountClosed':
      return 0;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/** The part of an event that counts toward credits ever granted. */
export const grantedBy = (event: CreditEvent): number => {
  switch (event.type) {
    case 'FreeCreditsGranted':
    case 'CreditsGranted':
    case 'MonthlyCreditsGranted':
      return event.data.amount;
    case 'CreditsAdjusted':
      return Math.max(event.data.amount, 0);
    default:
      return 0;
  }
};

export const evolve = (state: CreditAccount, event: CreditEvent): CreditAccount => {
  const next: CreditAccount = {
    ...state,
    balance: state.balance + balanceChange(event),
    totalGranted: state.totalGranted + grantedBy(event),
  };
  switch (event.type) {
    case 'CreditAccountOpened':
      return { ...next, status: 'open', userId: event.data.userId };
    case 'FreeCreditsGranted':
      return { ...next, freeAllotmentGranted: true };
    case 'CreditsGranted':
      return {
        ...next,
        grantIds: new Set(state.grantIds).add(event.data.grantId),
        purchases:
          event.data.kind === 'purchase'
            ? { ...state.purchases, [event.data.grantId]: event.data.amount }
            : state.purchases,
      };
    case 'PurchaseReversed': {
      const { [event.data.grantId]: _reversed, ...purchases } = state.purchases;
      return { ...next, purchases };
    }
    case 'SubscriptionActivated':
      return {
        ...next,
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
          { spendId: event.data.spendId, amount: event.data.amount, refunded: false },
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
    case 'RolloverForfeited':
    case 'CreditsAdjusted':
    case 'CreditsForfeited':
      return next;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};
