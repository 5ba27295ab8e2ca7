import type { CreditEvent, CreditEventOf } from '@astra/contracts';
import { daysUntil, firstDayOfNextMonth, isoDay, longDate, monthOf } from '../dates.ts';
import { DomainError } from '../decider.ts';
import { type CreditAccount, monthKey } from './credits.ts';

/** A pricing tier as the command handler looked it up (our table, never the caller's word). */
export interface Tier {
  tierId: number;
  tierName: string;
  creditsPerMonth: number;
}

export const MAX_ADJUSTMENT = 1_000_000;

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
    }
  | {
      type: 'SpendCredits';
      spendId: string;
      amount: number;
      purpose: 'reading' | 'voice_reactivation';
      description: string;
      appId: number | null;
      readingId: string | null;
    }
  | { type: 'RefundSpend'; spendId: string; reason: string }
  | { type: 'AdjustCredits'; amount: number; reason: string; adminId: string }
  | { type: 'ReversePurchase'; grantId: string; reference: Record<string, string> | null }
  | { type: 'CancelSubscription'; reason: string }
  | { type: 'EndSubscription'; reason: string }
  | { type: 'CloseAccount' };

export const errors = {
  userNotFound: () => new DomainError('user_not_found', 'User not found'),
  accountClosed: () => new DomainError('account_closed', 'This account has been deleted'),
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
  invalidAmount: (message: string) => new DomainError('invalid_amount', message),
  reasonRequired: () => new DomainError('reason_required', 'A reason is required'),
  spendNotRefundable: (spendId: string) =>
    new DomainError('spend_not_refundable', `Spend ${spendId} cannot be refunded`, { spendId }),
  refreshNotDue: (nextRenewalDate: string, now: Date) => {
    const days = Math.max(daysUntil(nextRenewalDate, now), 1);
    return new DomainError(
      'refresh_not_due',
      `Your next renewal is in ${days} day${days === 1 ? '' : 's'} on ${longDate(nextRenewalDate)}.`,
      { nextRenewalDate, days },
    );
  },
};

const requireOpen = (state: CreditAccount) => {
  if (state.status === 'unopened') throw errors.userNotFound();
  if (state.status === 'closed') throw errors.accountClosed();
};

const requirePositiveWhole = (amount: number, what: string) => {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw errors.invalidAmount(`${what} must be a positive whole number of credits`);
  }
};

/**
 * The spec's rollover: the new balance is one month of credits plus what remained, but at most
 * one month of it; anything above is forfeited by its own event first.
 */
export const monthlyGrant = (
  state: CreditAccount,
  tier: Tier,
  period: string,
  now: Date,
  trigger: CreditEventOf<'MonthlyCreditsGranted'>['data']['trigger'],
  reference: Record<string, string> | null,
  nextRenewalDate = firstDayOfNextMonth(now),
): CreditEvent[] => {
  const monthly = tier.creditsPerMonth;
  const rolledOver = Math.min(state.balance, monthly);
  const forfeited = state.balance - rolledOver;
  const events: CreditEvent[] = [];
  if (forfeited > 0) {
    events.push({
      type: 'RolloverForfeited',
      data: { period, amount: forfeited, monthlyCredits: monthly },
    });
  }
  events.push({
    type: 'MonthlyCreditsGranted',
    data: {
      period,
      tierId: tier.tierId,
      tierName: tier.tierName,
      amount: monthly,
      previousBalance: state.balance,
      rolledOver,
      nextRenewalDate,
      grantedOn: isoDay(now),
      trigger,
      reference,
    },
  });
  return events;
};

/** The spec's success text for a monthly refresh, from the events it produced. */
export const refreshSummary = (events: readonly CreditEvent[]) => {
  const grant = events.find(
    (e): e is CreditEventOf<'MonthlyCreditsGranted'> => e.type === 'MonthlyCreditsGranted',
  );
  if (!grant) return null;
  const { amount, rolledOver } = grant.data;
  return `Monthly credits refreshed! Added ${amount} credits + ${rolledOver} rolled over. New balance: ${amount + rolledOver}.`;
};

export const decide = (command: CreditCommand, state: CreditAccount): CreditEvent[] => {
  switch (command.type) {
    case 'OpenAccount':
      if (state.status !== 'unopened') return []; // opening is idempotent
      return [{ type: 'CreditAccountOpened', data: { userId: command.userId } }];

    case 'GrantFreeAllotment':
      requireOpen(state);
      requirePositiveWhole(command.amount, 'The free allotment');
      if (state.freeAllotmentGranted) return [];
      return [{ type: 'FreeCreditsGranted', data: { amount: command.amount } }];

    case 'GrantCredits': {
      requireOpen(state);
      requirePositiveWhole(command.amount, 'A grant');
      if (state.grantIds.has(command.grantId)) return []; // this purchase was granted already
      const { type: _type, ...data } = command;
      return [{ type: 'CreditsGranted', data }];
    }

    case 'ActivateSubscription': {
      requireOpen(state);
      // An ended subscription stays ended, whatever arrives late about it.
      if (command.subscriptionId && state.endedSubscriptions.includes(command.subscriptionId))
        return [];
      const current = state.subscription;
      const same =
        current?.tierId === command.tier.tierId &&
        current.subscriptionId === command.subscriptionId;
      if (same && current?.status === 'active') return [];
      // A cancellation at period end holds (a paid invoice does not undo it) unless resumed.
      if (same && current?.status === 'cancelled' && !command.resume) return [];
      return [
        {
          type: 'SubscriptionActivated',
          data: {
            tierId: command.tier.tierId,
            tierName: command.tier.tierName,
            creditsPerMonth: command.tier.creditsPerMonth,
            subscriptionId: command.subscriptionId,
            nextRenewalDate: current?.nextRenewalDate ?? isoDay(command.now),
          },
        },
      ];
    }

    case 'RefreshMonthlyCredits': {
      if (state.status === 'unopened') throw errors.userNotFound();
      const subscription = state.subscription;
      if (state.status === 'closed' || subscription?.status !== 'active') {
        throw errors.noActiveSubscription();
      }
      if (!subscription.tierId) throw errors.missingTier();
      if (!command.tier || command.tier.tierId !== subscription.tierId) throw errors.invalidTier();
      if (subscription.nextRenewalDate > isoDay(command.now)) {
        throw errors.refreshNotDue(subscription.nextRenewalDate, command.now);
      }
      const period = monthOf(subscription.nextRenewalDate);
      if (state.grantedMonths.includes(monthKey(subscription.subscriptionId, period))) {
        throw errors.refreshNotDue(firstDayOfNextMonth(command.now), command.now);
      }
      return monthlyGrant(state, command.tier, period, command.now, 'manual_refresh', null);
    }

    case 'GrantMonthlyCredits': {
      requireOpen(state);
      const subscription = state.subscription;
      if (!subscription) throw errors.noActiveSubscription();
      if (!command.tier || command.tier.tierId !== subscription.tierId) throw errors.invalidTier();
      if (state.grantedMonths.includes(monthKey(subscription.subscriptionId, command.period)))
        return [];
      return monthlyGrant(
        state,
        command.tier,
        command.period,
        command.now,
        command.trigger,
        command.reference,
        command.nextRenewalDate,
      );
    }

    case 'SpendCredits':
      requireOpen(state);
      requirePositiveWhole(command.amount, 'A spend');
      if (state.balance < command.amount) {
        throw errors.insufficientCredits(command.amount, state.balance);
      }
      return [
        {
          type: 'CreditsSpent',
          data: {
            spendId: command.spendId,
            amount: command.amount,
            purpose: command.purpose,
            description: command.description,
            appId: command.appId,
            readingId: command.readingId,
          },
        },
      ];

    case 'RefundSpend': {
      requireOpen(state);
      const spend = state.recentSpends.find((s) => s.spendId === command.spendId);
      if (!spend) throw errors.spendNotRefundable(command.spendId);
      if (spend.refunded) return []; // refunding twice is a no-op, not a second refund
      return [
        {
          type: 'SpendRefunded',
          data: { spendId: spend.spendId, amount: spend.amount, reason: command.reason },
        },
      ];
    }

    case 'AdjustCredits': {
      requireOpen(state);
      const reason = command.reason.trim();
      if (!reason) throw errors.reasonRequired();
      if (!Number.isSafeInteger(command.amount) || command.amount === 0) {
        throw errors.invalidAmount('The amount must be a whole number other than 0');
      }
      if (Math.abs(command.amount) > MAX_ADJUSTMENT) {
        throw errors.invalidAmount(`An adjustment is at most ${MAX_ADJUSTMENT} credits`);
      }
      if (command.amount < 0 && -command.amount > state.balance) {
        throw errors.insufficientCredits(-command.amount, state.balance);
      }
      return [
        {
          type: 'CreditsAdjusted',
          data: { amount: command.amount, reason, adminId: command.adminId },
        },
      ];
    }

    case 'ReversePurchase': {
      requireOpen(state);
      const granted = state.purchases[command.grantId];
      if (granted === undefined) return []; // unknown or already reversed
      const amount = Math.min(granted, state.balance);
      return [
        {
          type: 'PurchaseReversed',
          data: {
            grantId: command.grantId,
            amount,
            shortfall: granted - amount,
            reference: command.reference,
          },
        },
      ];
    }

    case 'CancelSubscription': {
      requireOpen(state);
      const subscription = state.subscription;
      if (subscription?.status === 'cancelled') return [];
      if (subscription?.status !== 'active') throw errors.noActiveSubscription();
      return [
        {
          type: 'SubscriptionCancelled',
          data: { reason: command.reason, accessUntil: subscription.nextRenewalDate },
        },
      ];
    }

    case 'EndSubscription':
      if (state.status !== 'open' || !state.subscription) return [];
      return [{ type: 'SubscriptionEnded', data: { reason: command.reason } }];

    case 'CloseAccount': {
      if (state.status === 'unopened') throw errors.userNotFound();
      if (state.status === 'closed') return [];
      const events: CreditEvent[] = [];
      if (state.subscription) {
        events.push({ type: 'SubscriptionEnded', data: { reason: 'account_deleted' } });
      }
      if (state.balance > 0) {
        events.push({
          type: 'CreditsForfeited',
          data: { amount: state.balance, reason: 'account_deleted' },
        });
      }
      events.push({ type: 'CreditAccountClosed', data: { reason: 'account_deleted' } });
      return events;
    }

    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown credit command ${JSON.stringify(exhaustive)}`);
    }
  }
};
