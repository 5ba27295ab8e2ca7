import type { CreditEvent, CreditPayment } from '@astra/contracts';
import { adminMessages, formatLongDate } from '@astra/contracts';
import { daysUntil } from '../dates.ts';
import { DomainError } from '../decider.ts';
import { type CreditAccount, evolve } from './account.ts';

/** What a credit account can be asked, and its refusals (the rules: `businessLogic.ts`). */

/** A pricing tier as the command handler looked it up (our table, never the caller's word). */
export interface Tier {
  tierId: number;
  tierName: string;
  creditsPerMonth: number;
}

export const MAX_ADJUSTMENT = 1_000_000;

/** A dispute of a payment, as Stripe names it. */
export interface DisputedPayment {
  disputeId: string;
  chargeId: string;
  paymentIntentId: string;
  amountMinor: number;
  currency: string;
}

export type CreditCommand =
  | { type: 'OpenAccount'; userId: string }
  | { type: 'GrantFreeAllotment'; amount: number }
  | {
      type: 'GrantCredits';
      grantId: string;
      kind: 'purchase' | 'promotional';
      amount: number;
      reason: string;
      tierId: number | null;
      reference: Record<string, string> | null;
      /** What Stripe says was paid for it (its object's amount and currency). */
      payment?: CreditPayment;
    }
  | {
      type: 'ActivateSubscription';
      tier: Tier;
      subscriptionId: string | null;
      now: Date;
      /** Undo a cancellation at period end (Stripe says the subscription goes on after all). */
      resume?: boolean;
    }
  /** The spec's manual 'Refresh Monthly Credits'; `tier` is undefined when the lookup found none. */
  | { type: 'RefreshMonthlyCredits'; tier: Tier | undefined; now: Date }
  /** A renewal paid (Stripe `invoice.paid`) or due (the scheduler): grants that month once. */
  | {
      type: 'GrantMonthlyCredits';
      tier: Tier | undefined;
      period: string;
      trigger: 'renewal' | 'scheduler';
      reference: Record<string, string> | null;
      now: Date;
      /** When the paid period ends (Stripe's); otherwise the first of next month. */
      nextRenewalDate?: string;
      /** What Stripe says the invoice paid (its `amount_paid` and currency). */
      payment?: CreditPayment;
    }
  | {
      type: 'SpendCredits';
      spendId: string;
      amount: number;
      purpose: 'reading' | 'voice_reactivation';
      description: string;
      appId: number | null;
      readingId: string | null;
      /** The user stream's state: a blocked user spends nothing (`account_blocked`). */
      blocked?: boolean;
    }
  | { type: 'RefundSpend'; spendId: string; reason: string }
  /**
   * `adjustmentId` makes an adjustment happen once (a retried request names the same one).
   * `expectedBalance`: the balance the admin saw; another balance now is `balance_changed`.
   */
  | {
      type: 'AdjustCredits';
      amount: number;
      reason: string;
      adminId: string;
      adjustmentId?: string;
      expectedBalance?: number;
    }
  /** Stripe refunded (part of) a payment: `refundedMinor` is the charge's refunded total so far. */
  | {
      type: 'RefundPurchase';
      paymentIntentId: string;
      chargeId: string;
      refundedMinor: number;
      paidMinor: number;
      currency: string;
    }
  /**
   * Stripe refunded (part of) the payment of a subscription invoice: the money is recorded, the
   * month's credits are kept. `refundedMinor` is the charge's refunded total so far; `period` the
   * month (`YYYY-MM`) the invoice paid for, as its `invoice.paid` granted it.
   */
  | {
      type: 'RecordPaymentRefund';
      paymentIntentId: string;
      chargeId: string;
      refundedMinor: number;
      paidMinor: number;
      currency: string;
      invoiceId: string;
      subscriptionId: string;
      period: string;
    }
  /**
   * The customer disputed a payment and Stripe withdrew it (`charge.dispute.created`): the credits
   * of the pack it paid for are held while the dispute is open. `amountMinor`: the disputed amount.
   */
  | ({ type: 'OpenDispute' } & DisputedPayment)
  /**
   * A dispute closed (`charge.dispute.closed`, Stripe's `status`): won, the credits are free
   * again; lost, they are taken back in proportion to the disputed amount of `paidMinor`.
   */
  | ({ type: 'CloseDispute'; status: string; paidMinor: number } & DisputedPayment)
  | {
      type: 'StartSubscriptionCheckout';
      sessionId: string;
      url: string;
      tierId: number;
      expiresAt: string;
      now: Date;
    }
  | {
      type: 'CloseSubscriptionCheckout';
      sessionId: string;
      outcome: 'completed' | 'canceled' | 'expired';
    }
  /** Another plan from the next renewal; `tier` is undefined when the lookup found none. */
  | { type: 'ChangePlan'; tier: Tier | undefined }
  | { type: 'CancelSubscription'; reason: string }
  | { type: 'EndSubscription'; reason: string }
  | { type: 'CloseAccount' };

export const errors = {
  userNotFound: () => new DomainError('user_not_found', 'User not found'),
  accountClosed: () => new DomainError('account_closed', 'This account has been deleted'),
  accountBlocked: () => new DomainError('account_blocked', adminMessages.accountBlocked),
  noActiveSubscription: () =>
    new DomainError('no_active_subscription', 'User does not have an active subscription'),
  missingTier: () =>
    new DomainError('subscription_missing_tier', 'User subscription missing tier information'),
  invalidTier: () => new DomainError('invalid_tier', 'Invalid tier ID'),
  insufficientCredits: (required: number, balance: number) =>
    new DomainError('insufficient_credits', `You need ${required} credits but have ${balance}.`, {
      required,
      balance,
    }),
  creditsOnHold: (required: number, usable: number, held: number) =>
    new DomainError(
      'insufficient_credits',
      `You need ${required} credits but can use ${usable}: ${held} are on hold while a payment of yours is disputed.`,
      { required, balance: usable, held },
    ),
  invalidDispute: () =>
    new DomainError(
      'invalid_amount',
      'A dispute must be of more than 0 and at most the amount paid',
    ),
  balanceChanged: (expectedBalance: number, balance: number) =>
    new DomainError(
      'balance_changed',
      `The balance changed: it is ${balance} credits now, not ${expectedBalance}. Check the adjustment and try again.`,
      { expectedBalance, balance },
    ),
  selfAdjustment: () =>
    new DomainError('self_action', 'You cannot adjust your own credits: another admin must do it'),
  invalidAmount: (message: string) => new DomainError('invalid_amount', message),
  reasonRequired: () => new DomainError('reason_required', 'A reason is required'),
  spendNotRefundable: (spendId: string) =>
    new DomainError('spend_not_refundable', `Spend ${spendId} cannot be refunded`, { spendId }),
  subscriptionActive: (tierName: string) =>
    new DomainError(
      'subscription_active',
      `You already have the ${tierName} plan. To switch, change your plan instead of subscribing again.`,
      { tierName },
    ),
  checkoutInProgress: (checkout: { sessionId: string; url: string }) =>
    new DomainError(
      'checkout_in_progress',
      'A subscription checkout is already open for your account. Continue it, or wait until it expires.',
      { sessionId: checkout.sessionId, url: checkout.url },
    ),
  samePlan: (tierName: string) =>
    new DomainError('same_plan', `You are already on the ${tierName} plan.`, { tierName }),
  invalidRefund: () =>
    new DomainError('invalid_amount', 'A refund must be between 0 and the amount paid'),
  unknownPayment: (invoiceId: string, period: string) =>
    new DomainError(
      'unknown_payment',
      `No month of this account was paid by invoice ${invoiceId} (${period})`,
      { invoiceId, period },
    ),
  refreshNotDue: (nextRenewalDate: string, now: Date) => {
    const days = Math.max(daysUntil(nextRenewalDate, now), 1);
    return new DomainError(
      'refresh_not_due',
      `Your next renewal is in ${days} day${days === 1 ? '' : 's'} on ${formatLongDate(nextRenewalDate)}.`,
      { nextRenewalDate, days },
    );
  },
};

export type Cmd<K extends CreditCommand['type']> = Extract<CreditCommand, { type: K }>;

export const requireOpen = (state: CreditAccount) => {
  if (state.status === 'unopened') throw errors.userNotFound();
  if (state.status === 'closed') throw errors.accountClosed();
};

export const requirePositiveWhole = (amount: number, what: string) => {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw errors.invalidAmount(`${what} must be a positive whole number of credits`);
  }
};

/**
 * The balance ceiling: no command takes an account's balance, or its total ever granted, above a
 * billion credits (`balance_limit`, nothing written). That is far beyond any real account (the
 * largest pack is 320 credits, the largest month 480), and far below what the read models hold
 * (`bigint` columns) and what JavaScript counts exactly (2^53): the read edge turns credit
 * columns into numbers and can trust them, even summed over a million accounts at the ceiling.
 * Deductions, spends and forfeits are never refused by it; a history from before it replays as
 * recorded.
 */
export const MAX_BALANCE = 1_000_000_000;

/** The granting commands' events, if they keep the account within `MAX_BALANCE`. */
export const withinCeiling = (state: CreditAccount, events: CreditEvent[]): CreditEvent[] => {
  const after = events.reduce((s, event) => evolve(s, event), state);
  const balanceOver = after.balance > MAX_BALANCE && after.balance > state.balance;
  const grantedOver = after.totalGranted > MAX_BALANCE && after.totalGranted > state.totalGranted;
  if (balanceOver || grantedOver) {
    const amount = Math.max(after.balance - state.balance, after.totalGranted - state.totalGranted);
    throw new DomainError(
      'balance_limit',
      `This would take the account past ${MAX_BALANCE.toLocaleString('en-US')} credits, the most an account can hold or be granted.`,
      { limit: MAX_BALANCE, amount, balance: state.balance, totalGranted: state.totalGranted },
    );
  }
  return events;
};
