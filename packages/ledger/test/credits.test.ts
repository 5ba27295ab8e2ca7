import type { CreditEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import { MAX_BALANCE } from '../src/credits/businessLogic.ts';
import {
  balanceChange,
  type CreditCommand,
  creditAccountDecider,
  fold,
  lotTotals,
  REFUNDABLE_SPENDS,
  refreshSummary,
  type Tier,
} from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

const given = deciderSpecification(creditAccountDecider);

const opened: CreditEvent = { type: 'CreditAccountOpened', data: { userId: 'u1' } };
const free = (amount = 10): CreditEvent => ({ type: 'FreeCreditsGranted', data: { amount } });
const granted = (amount: number, grantId = `g-${amount}`): CreditEvent => ({
  type: 'CreditsGranted',
  data: { grantId, kind: 'purchase', amount, reason: 'Explorer pack', tierId: 2, reference: null },
});
const spent = (amount: number, spendId = `s-${amount}`): CreditEvent => ({
  type: 'CreditsSpent',
  data: {
    spendId,
    amount,
    purpose: 'reading',
    description: 'Tarot Traditional reading',
    appId: 3,
    readingId: 'r1',
  },
});
const spend = (amount: number, spendId = `s-${amount}`): CreditCommand => ({
  type: 'SpendCredits',
  spendId,
  amount,
  purpose: 'reading',
  description: 'Tarot Traditional reading',
  appId: 3,
  readingId: 'r1',
});

const starter: Tier = { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 };
const activated = (nextRenewalDate = '2026-11-01', tier: Tier = starter): CreditEvent => ({
  type: 'SubscriptionActivated',
  data: { ...tier, subscriptionId: 'sub_1', nextRenewalDate },
});
const now = new Date('2026-11-21T10:00:00Z');
type GrantCommand = Extract<CreditCommand, { type: 'GrantCredits' }>;
/** A month of Starter granted to `sub_1`. */
const month = (period: string, amount = 60): CreditEvent => ({
  type: 'MonthlyCreditsGranted',
  data: {
    period,
    tierId: 1,
    tierName: 'Starter',
    amount,
    previousBalance: 0,
    rolledOver: 0,
    nextRenewalDate: '2026-11-01',
    grantedOn: `${period}-01`,
    trigger: 'renewal',
    reference: { subscriptionId: 'sub_1' },
  },
});

describe('open account', () => {
  it('opens an account once', () => {
    given([]).when({ type: 'OpenAccount', userId: 'u1' }).then([opened]);
    given([opened]).when({ type: 'OpenAccount', userId: 'u1' }).thenNothingHappens();
  });
});

describe('free allotment', () => {
  it('grants the allotment to an open account once', () => {
    given([opened])
      .when({ type: 'GrantFreeAllotment', amount: 10 })
      .then([free(10)]);
    given([opened, free()]).when({ type: 'GrantFreeAllotment', amount: 10 }).thenNothingHappens();
  });
  it('refuses an account that does not exist', () => {
    given([])
      .when({ type: 'GrantFreeAllotment', amount: 10 })
      .thenThrows('user_not_found', 'User not found');
  });
});

describe('grant', () => {
  const grant = (amount: number, grantId = 'checkout:cs_1'): CreditCommand => ({
    type: 'GrantCredits',
    grantId,
    kind: 'purchase',
    amount,
    reason: 'Explorer pack',
    tierId: 2,
    reference: null,
  });
  it('grants purchased credits once per grant id', () => {
    given([opened])
      .when(grant(100))
      .then([granted(100, 'checkout:cs_1')]);
    given([opened, granted(100, 'checkout:cs_1')])
      .when(grant(100))
      .thenNothingHappens();
  });
  it("records the money Stripe took for a pack, from Stripe's object", () => {
    const payment = { amountMinor: 1799, currency: 'usd' };
    given([opened])
      .when({ ...(grant(100) as GrantCommand), payment })
      .then([
        {
          type: 'CreditsGranted',
          data: { ...(granted(100, 'checkout:cs_1').data as GrantCommand), payment },
        } as CreditEvent,
      ]);
  });
  it('grants promotional credits', () => {
    given([opened])
      .when({
        type: 'GrantCredits',
        grantId: 'promo-1',
        kind: 'promotional',
        amount: 5,
        reason: 'Welcome back',
        tierId: null,
        reference: null,
      })
      .then([
        {
          type: 'CreditsGranted',
          data: {
            grantId: 'promo-1',
            kind: 'promotional',
            amount: 5,
            reason: 'Welcome back',
            tierId: null,
            reference: null,
          },
        },
      ]);
  });
  it('refuses amounts that are not positive whole credits', () => {
    for (const amount of [0, -5, 2.5, Number.NaN])
      given([opened]).when(grant(amount)).thenThrows('invalid_amount');
  });
  it('refuses a deleted account', () => {
    given([opened, { type: 'CreditAccountClosed', data: { reason: 'account_deleted' } }])
      .when(grant(10))
      .thenThrows('account_closed');
  });
});

describe('spend', () => {
  it('spends when the balance covers the cost, down to exactly zero', () => {
    given([opened, free(10)])
      .when(spend(4))
      .then([spent(4)]);
    given([opened, free(10)])
      .when(spend(10))
      .then([spent(10)]);
  });
  it('never goes below zero: names what is required and what there is', () => {
    given([opened, free(10), spent(8)])
      .when(spend(4))
      .thenThrows('insufficient_credits', 'You need 4 credits but have 2.', {
        required: 4,
        balance: 2,
      });
  });
  it('spends a spend id once: a retried request spends nothing more', () => {
    given([opened, free(10), spent(4, 'sp1')])
      .when(spend(4, 'sp1'))
      .thenNothingHappens();
  });
  it('refuses non-positive amounts and unknown accounts', () => {
    given([opened, free(10)])
      .when(spend(0))
      .thenThrows('invalid_amount');
    given([]).when(spend(1)).thenThrows('user_not_found');
  });
});

describe('refund of a spend', () => {
  const refund = (spendId: string): CreditCommand => ({
    type: 'RefundSpend',
    spendId,
    reason: 'generation_failed',
  });
  it('gives back exactly what the spend took, to the lots it took it from, once', () => {
    given([opened, free(10), spent(4, 'sp1')])
      .when(refund('sp1'))
      .then([
        {
          type: 'SpendRefunded',
          data: {
            spendId: 'sp1',
            amount: 4,
            reason: 'generation_failed',
            lots: [{ lot: 'free', source: 'free', amount: 4 }],
          },
        },
      ]);
    given([
      opened,
      free(10),
      spent(4, 'sp1'),
      { type: 'SpendRefunded', data: { spendId: 'sp1', amount: 4, reason: 'generation_failed' } },
    ])
      .when(refund('sp1'))
      .thenNothingHappens();
  });
  it('refuses a spend it does not know, or one older than the refund window', () => {
    given([opened, free(10)])
      .when(refund('nope'))
      .thenThrows('spend_not_refundable');
    const many = Array.from({ length: REFUNDABLE_SPENDS }, (_, i) => spent(1, `later-${i}`));
    given([opened, granted(500), spent(1, 'old'), ...many])
      .when(refund('old'))
      .thenThrows('spend_not_refundable');
    given([opened, granted(500), spent(1, 'old'), ...many.slice(1)])
      .when(refund('old'))
      .then([
        {
          type: 'SpendRefunded',
          data: {
            spendId: 'old',
            amount: 1,
            reason: 'generation_failed',
            lots: [{ lot: 'g-500', source: 'purchased', amount: 1 }],
          },
        },
      ]);
  });
});

describe('admin adjustment', () => {
  const adjust = (
    amount: number,
    reason = 'Goodwill',
  ): Extract<CreditCommand, { type: 'AdjustCredits' }> => ({
    type: 'AdjustCredits',
    amount,
    reason,
    adminId: 'admin-1',
  });
  it('makes an adjustment with an id once', () => {
    const once: CreditCommand = {
      type: 'AdjustCredits',
      amount: 5,
      reason: 'Goodwill',
      adminId: 'admin-1',
      adjustmentId: 'adj-1',
    };
    const made: CreditEvent = {
      type: 'CreditsAdjusted',
      data: { amount: 5, reason: 'Goodwill', adminId: 'admin-1', adjustmentId: 'adj-1' },
    };
    given([opened]).when(once).then([made]);
    given([opened, made]).when(once).thenNothingHappens();
  });
  it('adds and deducts with the admin and a trimmed reason recorded', () => {
    given([opened, free(10)])
      .when(adjust(25, '  Goodwill  '))
      .then([
        { type: 'CreditsAdjusted', data: { amount: 25, reason: 'Goodwill', adminId: 'admin-1' } },
      ]);
    given([opened, free(10)])
      .when(adjust(-10))
      .then([
        {
          type: 'CreditsAdjusted',
          data: {
            amount: -10,
            reason: 'Goodwill',
            adminId: 'admin-1',
            // The lots it took (zero-value credits first).
            lots: [{ lot: 'free', source: 'free', amount: 10 }],
          },
        },
      ]);
  });
  it('refuses when the balance is not the one the admin saw (expectedBalance)', () => {
    const seen = (amount: number, expectedBalance: number): CreditCommand => ({
      ...adjust(amount),
      expectedBalance,
    });
    given([opened, free(10)])
      .when(seen(5, 10))
      .then([
        { type: 'CreditsAdjusted', data: { amount: 5, reason: 'Goodwill', adminId: 'admin-1' } },
      ]);
    given([opened, free(10), spent(3)])
      .when(seen(5, 10))
      .thenThrows(
        'balance_changed',
        'The balance changed: it is 7 credits now, not 10. Check the adjustment and try again.',
        { expectedBalance: 10, balance: 7 },
      );
    // The balance that moved is told before a deduction larger than it.
    given([opened, free(10), spent(3)])
      .when(seen(-9, 10))
      .thenThrows('balance_changed', undefined, { expectedBalance: 10, balance: 7 });
    // On the balance seen, a deduction of all of it is made.
    const [deducted] = creditAccountDecider.decide(
      seen(-10, 10),
      fold(creditAccountDecider, [opened, free(10)]),
    ) as CreditEvent[];
    expect(deducted).toMatchObject({ type: 'CreditsAdjusted', data: { amount: -10 } });
  });
  it('answers a retried adjustment made already as made, though the balance has moved since', () => {
    const once: CreditCommand = { ...adjust(5), adjustmentId: 'adj-2', expectedBalance: 10 };
    const made: CreditEvent = {
      type: 'CreditsAdjusted',
      data: { amount: 5, reason: 'Goodwill', adminId: 'admin-1', adjustmentId: 'adj-2' },
    };
    given([opened, free(10)])
      .when(once)
      .then([made]);
    given([opened, free(10), made])
      .when(once)
      .thenNothingHappens();
    given([opened, free(10), made, spent(3)])
      .when(once)
      .thenNothingHappens();
  });
  it("refuses an admin's adjustment of their own account", () => {
    given([opened, free(10)])
      .when({ type: 'AdjustCredits', amount: 1000, reason: 'Self-grant', adminId: 'u1' })
      .thenThrows('self_action', 'You cannot adjust your own credits: another admin must do it');
  });
  it('refuses a deduction larger than the balance', () => {
    given([opened, free(10)])
      .when(adjust(-11))
      .thenThrows('insufficient_credits', undefined, { required: 11, balance: 10 });
  });
  it('requires a reason and a whole amount other than zero, within bounds', () => {
    given([opened, free(10)])
      .when(adjust(5, '   '))
      .thenThrows('reason_required', 'A reason is required');
    given([opened, free(10)])
      .when(adjust(0))
      .thenThrows('invalid_amount');
    given([opened, free(10)])
      .when(adjust(1.5))
      .thenThrows('invalid_amount');
    given([opened, free(10)])
      .when(adjust(1_000_001))
      .thenThrows('invalid_amount');
  });
});

describe('monthly refresh (accounts spec §4)', () => {
  const refresh = (tier: Tier | null = starter, at = now): CreditCommand => ({
    type: 'RefreshMonthlyCredits',
    tier: tier ?? undefined,
    now: at,
  });

  it("refuses a user it does not know: 'User not found'", () => {
    given([]).when(refresh()).thenThrows('user_not_found', 'User not found');
  });
  it("refuses without an active subscription: 'User does not have an active subscription'", () => {
    const message = 'User does not have an active subscription';
    given([opened, free()]).when(refresh()).thenThrows('no_active_subscription', message);
    given([
      opened,
      activated(),
      {
        type: 'SubscriptionCancelled',
        data: { reason: 'user_requested', accessUntil: '2026-11-01' },
      },
    ])
      .when(refresh())
      .thenThrows('no_active_subscription', message);
    given([opened, activated(), { type: 'SubscriptionEnded', data: { reason: 'stripe' } }])
      .when(refresh())
      .thenThrows('no_active_subscription', message);
  });
  it("refuses a subscription without a tier: 'User subscription missing tier information'", () => {
    given([opened, activated('2026-11-01', { tierId: 0, tierName: '', creditsPerMonth: 60 })])
      .when(refresh())
      .thenThrows('subscription_missing_tier', 'User subscription missing tier information');
  });
  it("refuses a tier the catalogue does not have: 'Invalid tier ID'", () => {
    given([opened, activated()]).when(refresh(null)).thenThrows('invalid_tier', 'Invalid tier ID');
  });
  it('does nothing before the renewal date and says when it is', () => {
    given([opened, activated('2026-12-01')])
      .when(refresh())
      .thenThrows('refresh_not_due', 'Your next renewal is in 10 days on December 1, 2026.', {
        nextRenewalDate: '2026-12-01',
        days: 10,
      });
  });
  it('grants the month; free credits are kept beside it and are no part of the rollover', () => {
    given([opened, free(10), activated()])
      .when(refresh())
      .then([
        {
          type: 'MonthlyCreditsGranted',
          data: {
            period: '2026-11',
            tierId: 1,
            tierName: 'Starter',
            amount: 60,
            previousBalance: 10,
            rolledOver: 0,
            nextRenewalDate: '2026-12-01',
            grantedOn: '2026-11-21',
            trigger: 'manual_refresh',
            reference: null,
          },
        },
      ]);
  });
  it('rolls over at most one month of subscription credits: the excess is forfeited first', () => {
    // Two months of subscription credits unspent (120), and 100 purchased beside them.
    const history = [opened, granted(100), activated(), month('2026-09'), month('2026-10')];
    const events = creditAccountDecider.decide(refresh(), fold(creditAccountDecider, history));
    expect(events.map((e) => e.type)).toEqual(['RolloverForfeited', 'MonthlyCreditsGranted']);
    expect(events[0]).toEqual({
      type: 'RolloverForfeited',
      data: { period: '2026-11', amount: 60, monthlyCredits: 60 },
    });
    const after = fold(creditAccountDecider, [...history, ...events]);
    expect(after.balance).toBe(220); // 60 new + 60 rolled over + 100 purchased, kept
    expect(lotTotals(after.lots)).toEqual({
      subscription: 120,
      free: 0,
      promotional: 0,
      purchased: 100,
    });
    expect(refreshSummary(events)).toBe(
      'Monthly credits refreshed! Added 60 credits + 60 rolled over. New balance: 220.',
    );
  });
  it('never forfeits purchased or free credits: a 320 pack, then Starter, keeps all 330', () => {
    const history = [opened, free(10), granted(320), activated()];
    const events = creditAccountDecider.decide(refresh(), fold(creditAccountDecider, history));
    expect(events.map((e) => e.type)).toEqual(['MonthlyCreditsGranted']);
    expect(fold(creditAccountDecider, [...history, ...events]).balance).toBe(390);
  });
  it('moves the next renewal to the first of next month, so a second refresh waits', () => {
    const first = creditAccountDecider.decide(
      refresh(),
      fold(creditAccountDecider, [opened, activated()]),
    );
    const state = fold(creditAccountDecider, [opened, activated(), ...first]);
    expect(state.subscription).toMatchObject({
      nextRenewalDate: '2026-12-01',
      lastRefreshDate: '2026-11-21',
      status: 'active',
    });
    given([opened, activated(), ...first])
      .when(refresh())
      .thenThrows('refresh_not_due');
    // On the renewal date it is due again.
    const december = creditAccountDecider.decide(
      refresh(starter, new Date('2026-12-01T08:00:00Z')),
      state,
    );
    expect(december.at(-1)).toMatchObject({
      type: 'MonthlyCreditsGranted',
      data: { period: '2026-12', rolledOver: 60 },
    });
  });
});

describe('monthly grant from a renewal (Stripe invoice or scheduler)', () => {
  const renewal = (period: string): CreditCommand => ({
    type: 'GrantMonthlyCredits',
    tier: starter,
    period,
    trigger: 'renewal',
    reference: { invoiceId: 'in_1' },
    now,
  });
  it('grants each period once, with the rollover rule', () => {
    const events = creditAccountDecider.decide(
      renewal('2026-11'),
      fold(creditAccountDecider, [opened, free(10), activated()]),
    );
    expect(events).toEqual([
      {
        type: 'MonthlyCreditsGranted',
        data: {
          period: '2026-11',
          tierId: 1,
          tierName: 'Starter',
          amount: 60,
          previousBalance: 10,
          rolledOver: 0,
          nextRenewalDate: '2026-12-01',
          grantedOn: '2026-11-21',
          trigger: 'renewal',
          reference: { invoiceId: 'in_1' },
        },
      },
    ]);
    given([opened, free(10), activated(), ...events])
      .when(renewal('2026-11'))
      .thenNothingHappens();
  });
  it('records the money the invoice paid on the month it grants', () => {
    const payment = { amountMinor: 999, currency: 'usd' };
    const [month] = creditAccountDecider.decide(
      {
        ...(renewal('2026-11') as Extract<CreditCommand, { type: 'GrantMonthlyCredits' }>),
        payment,
      },
      fold(creditAccountDecider, [opened, activated()]),
    );
    expect(month).toMatchObject({ type: 'MonthlyCreditsGranted', data: { amount: 60, payment } });
  });
  it('refuses without a subscription or with a different tier', () => {
    given([opened]).when(renewal('2026-11')).thenThrows('no_active_subscription');
    given([opened, activated()])
      .when({
        ...(renewal('2026-11') as Extract<CreditCommand, { type: 'GrantMonthlyCredits' }>),
        tier: { tierId: 9, tierName: 'X', creditsPerMonth: 1 },
      })
      .thenThrows('invalid_tier');
  });
});

describe('months per subscription, and ended subscriptions', () => {
  const renewal = (period: string, nextRenewalDate?: string): CreditCommand => ({
    type: 'GrantMonthlyCredits',
    tier: starter,
    period,
    trigger: 'renewal',
    reference: null,
    now,
    ...(nextRenewalDate ? { nextRenewalDate } : {}),
  });
  const month = (period: string): CreditEvent =>
    creditAccountDecider
      .decide(renewal(period), fold(creditAccountDecider, [opened, activated()]))
      .at(-1)!;

  it('takes the next renewal date from the paid period when Stripe gives it', () => {
    const events = creditAccountDecider.decide(
      renewal('2026-11', '2026-12-21'),
      fold(creditAccountDecider, [opened, activated()]),
    );
    expect(events.at(-1)).toMatchObject({ data: { nextRenewalDate: '2026-12-21' } });
  });
  it('never brings an ended subscription back, nor grants its months again', () => {
    const ended: CreditEvent[] = [
      opened,
      activated(),
      month('2026-11'),
      { type: 'SubscriptionEnded', data: { reason: 'stripe' } },
    ];
    given(ended)
      .when({ type: 'ActivateSubscription', tier: starter, subscriptionId: 'sub_1', now })
      .thenNothingHappens();
    given(ended).when(renewal('2026-11')).thenThrows('no_active_subscription');
  });
  it('grants the same month to a new subscription after the old one ended', () => {
    const history: CreditEvent[] = [
      opened,
      activated(),
      month('2026-11'),
      { type: 'SubscriptionEnded', data: { reason: 'stripe' } },
      {
        type: 'SubscriptionActivated',
        data: { ...starter, subscriptionId: 'sub_2', nextRenewalDate: '2026-11-21' },
      },
    ];
    const events = creditAccountDecider.decide(
      renewal('2026-11'),
      fold(creditAccountDecider, history),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'MonthlyCreditsGranted',
      data: { period: '2026-11' },
    });
  });
});

describe('subscription activated / cancelled / ended', () => {
  it('activates a tier, and again only when it changes', () => {
    given([opened])
      .when({ type: 'ActivateSubscription', tier: starter, subscriptionId: 'sub_1', now })
      .then([
        {
          type: 'SubscriptionActivated',
          data: { ...starter, subscriptionId: 'sub_1', nextRenewalDate: '2026-11-21' },
        },
      ]);
    given([opened, activated()])
      .when({ type: 'ActivateSubscription', tier: starter, subscriptionId: 'sub_1', now })
      .thenNothingHappens();
  });
  it('cancels at period end: access continues until the renewal date', () => {
    given([opened, activated('2026-12-01')])
      .when({ type: 'CancelSubscription', reason: 'user_requested' })
      .then([
        {
          type: 'SubscriptionCancelled',
          data: { reason: 'user_requested', accessUntil: '2026-12-01' },
        },
      ]);
    given([
      opened,
      activated('2026-12-01'),
      {
        type: 'SubscriptionCancelled',
        data: { reason: 'user_requested', accessUntil: '2026-12-01' },
      },
    ])
      .when({ type: 'CancelSubscription', reason: 'user_requested' })
      .thenNothingHappens();
  });
  it("refuses to cancel without a subscription: 'User does not have an active subscription'", () => {
    given([opened])
      .when({ type: 'CancelSubscription', reason: 'user_requested' })
      .thenThrows('no_active_subscription', 'User does not have an active subscription');
  });
  it('keeps a cancellation at period end through a paid invoice, unless resumed', () => {
    const cancelled: CreditEvent[] = [
      opened,
      activated('2026-12-01'),
      {
        type: 'SubscriptionCancelled',
        data: { reason: 'user_requested', accessUntil: '2026-12-01' },
      },
    ];
    given(cancelled)
      .when({ type: 'ActivateSubscription', tier: starter, subscriptionId: 'sub_1', now })
      .thenNothingHappens();
    given(cancelled)
      .when({
        type: 'ActivateSubscription',
        tier: starter,
        subscriptionId: 'sub_1',
        now,
        resume: true,
      })
      .then([
        {
          type: 'SubscriptionActivated',
          data: { ...starter, subscriptionId: 'sub_1', nextRenewalDate: '2026-12-01' },
        },
      ]);
  });
  it('ends a subscription once', () => {
    given([opened, activated()])
      .when({ type: 'EndSubscription', reason: 'stripe' })
      .then([{ type: 'SubscriptionEnded', data: { reason: 'stripe' } }]);
    given([opened]).when({ type: 'EndSubscription', reason: 'stripe' }).thenNothingHappens();
  });
});

describe('account deletion (accounts spec §4)', () => {
  it('forfeits every remaining credit by an event, ends the subscription and closes', () => {
    given([opened, free(10), activated()])
      .when({ type: 'CloseAccount' })
      .then([
        { type: 'SubscriptionEnded', data: { reason: 'account_deleted' } },
        { type: 'CreditsForfeited', data: { amount: 10, reason: 'account_deleted' } },
        { type: 'CreditAccountClosed', data: { reason: 'account_deleted' } },
      ]);
  });
  it('closes an empty account without a forfeit, once; a closed account spends nothing', () => {
    const closed: CreditEvent = {
      type: 'CreditAccountClosed',
      data: { reason: 'account_deleted' },
    };
    given([opened]).when({ type: 'CloseAccount' }).then([closed]);
    given([opened, closed]).when({ type: 'CloseAccount' }).thenNothingHappens();
    given([
      opened,
      free(10),
      { type: 'CreditsForfeited', data: { amount: 10, reason: 'account_deleted' } },
      closed,
    ])
      .when(spend(1))
      .thenThrows('account_closed');
  });
});

describe('purchase refund (Stripe charge.refunded)', () => {
  const pack = (amount: number, pi = 'pi_1', grantId = `checkout:cs_${pi}`): CreditEvent => ({
    type: 'CreditsGranted',
    data: {
      grantId,
      kind: 'purchase',
      amount,
      reason: 'Explorer pack',
      tierId: 2,
      reference: { checkoutSessionId: `cs_${pi}`, paymentIntentId: pi },
    },
  });
  const refund = (refundedMinor: number, pi = 'pi_1'): CreditCommand => ({
    type: 'RefundPurchase',
    paymentIntentId: pi,
    chargeId: 'ch_1',
    refundedMinor,
    paidMinor: 1799,
    currency: 'usd',
  });
  const stripeRefund = (refundedMinor: number, pi = 'pi_1') => ({
    paymentIntentId: pi,
    chargeId: 'ch_1',
    refundedMinor,
    paidMinor: 1799,
    currency: 'usd',
  });
  /** The money of a refund: what the refunded total grew by, and the total. */
  const paid = (amountMinor: number, refundedMinor: number, pi = 'pi_1'): CreditEvent => ({
    type: 'PaymentRefunded',
    data: { paymentIntentId: pi, chargeId: 'ch_1', amountMinor, refundedMinor, currency: 'usd' },
  });
  const reversed = (amount: number, shortfall: number, refundedMinor: number): CreditEvent => ({
    type: 'PurchaseReversed',
    data: {
      grantId: 'checkout:cs_pi_1',
      amount,
      shortfall,
      reference: { chargeId: 'ch_1', paymentIntentId: 'pi_1' },
      refund: stripeRefund(refundedMinor),
    },
  });

  it('takes back the whole purchase when it is unspent', () => {
    given([opened, pack(100)])
      .when(refund(1799))
      .then([paid(1799, 1799), reversed(100, 0, 1799)]);
  });
  it('takes back only what remains of that purchase: what was spent of it is the shortfall', () => {
    // Free credits go first, so 80 of the 100 purchased were spent.
    given([opened, free(10), pack(100), spent(90)])
      .when(refund(1799))
      .then([paid(1799, 1799), reversed(20, 80, 1799)]);
  });
  it('never touches other credits: another pack and free credits stay', () => {
    const history = [opened, free(10), pack(100), pack(40, 'pi_2'), spent(50)];
    const events = creditAccountDecider.decide(refund(1799), fold(creditAccountDecider, history));
    const after = fold(creditAccountDecider, [...history, ...events]);
    // Spent: 10 free, then 40 of the older pack; the refund takes its 60 left, pack 2 stays.
    expect(events).toEqual([paid(1799, 1799), reversed(60, 40, 1799)]);
    expect(lotTotals(after.lots)).toMatchObject({ free: 0, purchased: 40 });
  });
  it('reverses partial refunds in proportion, rounded down, and a repeat changes nothing', () => {
    // 30% of 17.99 is 5.39 (539): floor(100 × 539 / 1799) = 29 credits.
    given([opened, pack(100)])
      .when(refund(539))
      .then([paid(539, 539), reversed(29, 0, 539)]);
    given([opened, pack(100), paid(539, 539), reversed(29, 0, 539)])
      .when(refund(539))
      .thenNothingHappens();
    // The rest refunded: the total is the whole purchase, 71 more, and 12.60 more money.
    given([opened, pack(100), paid(539, 539), reversed(29, 0, 539)])
      .when(refund(1799))
      .then([paid(1260, 1799), reversed(71, 0, 1799)]);
    given([
      opened,
      pack(100),
      paid(539, 539),
      reversed(29, 0, 539),
      paid(1260, 1799),
      reversed(71, 0, 1799),
    ])
      .when(refund(1799))
      .thenNothingHappens();
    // A late event with a smaller total (Stripe keeps no order) records nothing.
    given([opened, pack(100), paid(1799, 1799), reversed(100, 0, 1799)])
      .when(refund(539))
      .thenNothingHappens();
  });
  it('records the money of a refund too small to take back a credit', () => {
    // floor(100 × 10 / 1799) = 0 credits: no reversal, but 0.10 went back to the buyer.
    given([opened, pack(100)])
      .when(refund(10))
      .then([paid(10, 10)]);
    given([opened, pack(100), paid(10, 10)])
      .when(refund(10))
      .thenNothingHappens();
    given([opened, pack(100), paid(10, 10)])
      .when(refund(539))
      .then([paid(529, 539), reversed(29, 0, 539)]);
  });
  it('counts refunds recorded before PaymentRefunded existed as recorded', () => {
    // An old reversal names its refund: its redelivery records no money a second time.
    given([opened, pack(100), reversed(29, 0, 539)])
      .when(refund(539))
      .thenNothingHappens();
    given([opened, pack(100), reversed(29, 0, 539)])
      .when(refund(1799))
      .then([paid(1260, 1799), reversed(71, 0, 1799)]);
    given([opened, { type: 'PurchaseRefundPending', data: stripeRefund(1799) }])
      .when(refund(1799))
      .thenNothingHappens();
  });
  it('has no effect on the balance', () => {
    expect(balanceChange(paid(1799, 1799))).toBe(0);
    const state = fold(creditAccountDecider, [opened, free(10), paid(1799, 1799)]);
    expect(state.balance).toBe(10);
    expect(state.refundedMinor).toEqual({ pi_1: 1799 });
  });
  it('remembers a refund that comes before its purchase, and applies it when the purchase lands', () => {
    given([opened])
      .when(refund(1799))
      .then([paid(1799, 1799), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }]);
    given([opened, paid(1799, 1799), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }])
      .when(refund(1799))
      .thenNothingHappens();
    // More refunded before the purchase lands: the new money, and the larger refund to apply.
    given([opened, paid(300, 300), { type: 'PurchaseRefundPending', data: stripeRefund(300) }])
      .when(refund(1799))
      .then([paid(1499, 1799), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }]);
    const grant = pack(100);
    given([opened, free(10), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }])
      .when({ ...(grant.data as Omit<GrantCommand, 'type'>), type: 'GrantCredits' })
      .then([grant, reversed(100, 0, 1799)]);
  });
  it('refuses refunds that are not a part of what was paid', () => {
    for (const refundedMinor of [-1, 1800, 2.5])
      given([opened, pack(100)])
        .when(refund(refundedMinor))
        .thenThrows('invalid_amount');
  });
  it('replays an old whole reversal (before lots) as taking back the whole purchase', () => {
    const old: CreditEvent = {
      type: 'PurchaseReversed',
      data: { grantId: 'checkout:cs_pi_1', amount: 30, shortfall: 70, reference: null },
    };
    const state = fold(creditAccountDecider, [opened, free(50), pack(100), spent(120), old]);
    expect(state.balance).toBe(0);
    given([opened, free(50), pack(100), spent(120), old])
      .when(refund(1799))
      .thenNothingHappens();
  });
});

describe('subscription payment refund (Stripe charge.refunded of an invoice)', () => {
  /** Stripe's refund of the invoice that paid Starter's November for `sub_1`. */
  const refund = (
    refundedMinor: number,
    { period = '2026-11', subscriptionId = 'sub_1', invoiceId = 'in_1' } = {},
  ): CreditCommand => ({
    type: 'RecordPaymentRefund',
    paymentIntentId: 'pi_inv_1',
    chargeId: 'ch_inv_1',
    refundedMinor,
    paidMinor: 999,
    currency: 'usd',
    invoiceId,
    subscriptionId,
    period,
  });
  const refunded = (amountMinor: number, refundedMinor: number): CreditEvent => ({
    type: 'PaymentRefunded',
    data: {
      paymentIntentId: 'pi_inv_1',
      chargeId: 'ch_inv_1',
      amountMinor,
      refundedMinor,
      currency: 'usd',
      invoiceId: 'in_1',
      subscriptionId: 'sub_1',
    },
  });
  const paidMonth = [opened, free(10), activated(), month('2026-11')];

  it('records the first refund of a paid month, and keeps its credits', () => {
    given(paidMonth)
      .when(refund(999))
      .then([refunded(999, 999)]);
    const after = fold(creditAccountDecider, [...paidMonth, refunded(999, 999)]);
    expect(after.balance).toBe(70);
    expect(lotTotals(after.lots)).toMatchObject({ subscription: 60, free: 10 });
    expect(after.refundedMinor).toEqual({ pi_inv_1: 999 });
  });
  it('records a partial refund, then only the new money of a larger one', () => {
    given(paidMonth)
      .when(refund(300))
      .then([refunded(300, 300)]);
    given([...paidMonth, refunded(300, 300)])
      .when(refund(999))
      .then([refunded(699, 999)]);
  });
  it('records nothing for a redelivery, or a late event with a smaller total', () => {
    given([...paidMonth, refunded(300, 300)])
      .when(refund(300))
      .thenNothingHappens();
    given([...paidMonth, refunded(300, 300), refunded(699, 999)])
      .when(refund(999))
      .thenNothingHappens();
    given([...paidMonth, refunded(999, 999)])
      .when(refund(300))
      .thenNothingHappens();
  });
  it('refuses the refund of a payment this account was never credited for', () => {
    // A month not granted here (an invoice we refused and gave back), another subscription's
    // month, an account without a subscription month at all.
    given(paidMonth)
      .when(refund(999, { period: '2026-12', invoiceId: 'in_2' }))
      .thenThrows(
        'unknown_payment',
        'No month of this account was paid by invoice in_2 (2026-12)',
        {
          invoiceId: 'in_2',
          period: '2026-12',
        },
      );
    given(paidMonth)
      .when(refund(999, { subscriptionId: 'sub_2' }))
      .thenThrows('unknown_payment');
    given([opened, free(10)])
      .when(refund(999))
      .thenThrows('unknown_payment');
    given([]).when(refund(999)).thenThrows('user_not_found');
  });
  it('records the money on a closed account too: it went back whatever became of the credits', () => {
    const closed: CreditEvent[] = [
      { type: 'SubscriptionEnded', data: { reason: 'account_deleted' } },
      { type: 'CreditsForfeited', data: { amount: 70, reason: 'account_deleted' } },
      { type: 'CreditAccountClosed', data: { reason: 'account_deleted' } },
    ];
    given([...paidMonth, ...closed])
      .when(refund(999))
      .then([refunded(999, 999)]);
  });
  it('refuses refunds that are not a part of what was paid', () => {
    for (const refundedMinor of [-1, 1000, 2.5])
      given(paidMonth).when(refund(refundedMinor)).thenThrows('invalid_amount');
  });
});

describe('credit lots', () => {
  it('spends subscription credits first, then free, then promotional, then purchased, oldest first', () => {
    const promo: CreditEvent = {
      type: 'CreditsAdjusted',
      data: { amount: 5, reason: 'Goodwill', adminId: 'a' },
    };
    const history = [
      opened,
      granted(100, 'p1'),
      free(10),
      promo,
      activated(),
      month('2026-11', 20),
    ];
    const take = (amount: number) =>
      lotTotals(fold(creditAccountDecider, [...history, spent(amount)]).lots);
    expect(take(20)).toEqual({ subscription: 0, free: 10, promotional: 5, purchased: 100 });
    expect(take(30)).toEqual({ subscription: 0, free: 0, promotional: 5, purchased: 100 });
    expect(take(35)).toEqual({ subscription: 0, free: 0, promotional: 0, purchased: 100 });
    const twoPacks = [opened, granted(10, 'older'), granted(10, 'newer'), spent(15)];
    expect(fold(creditAccountDecider, twoPacks).lots).toEqual([
      { id: 'newer', source: 'purchased', remaining: 5 },
    ]);
  });
  it('a refunded spend gives its credits back to the lots it came from', () => {
    const history = [opened, free(10), granted(100, 'p1'), activated(), month('2026-11', 20)];
    const events = creditAccountDecider.decide(
      { type: 'RefundSpend', spendId: 's-40', reason: 'generation_failed' },
      fold(creditAccountDecider, [...history, spent(40)]),
    );
    const after = fold(creditAccountDecider, [...history, spent(40), ...events]);
    expect(lotTotals(after.lots)).toEqual({
      subscription: 20,
      free: 10,
      promotional: 0,
      purchased: 100,
    });
  });
  it('an account deletion forfeits every lot', () => {
    const history = [opened, free(10), granted(100, 'p1')];
    const events = creditAccountDecider.decide(
      { type: 'CloseAccount' },
      fold(creditAccountDecider, history),
    );
    expect(fold(creditAccountDecider, [...history, ...events]).lots).toEqual([]);
  });
});

describe('one subscription per account', () => {
  const checkout = (sessionId: string, at = now): CreditCommand => ({
    type: 'StartSubscriptionCheckout',
    sessionId,
    url: `https://checkout/${sessionId}`,
    tierId: 1,
    expiresAt: '2026-11-21T10:30:00.000Z',
    now: at,
  });
  const started = (sessionId: string): CreditEvent => ({
    type: 'SubscriptionCheckoutStarted',
    data: {
      sessionId,
      url: `https://checkout/${sessionId}`,
      tierId: 1,
      expiresAt: '2026-11-21T10:30:00.000Z',
    },
  });
  it('opens one subscription checkout at a time, until it closes or expires', () => {
    given([opened])
      .when(checkout('cs_1'))
      .then([started('cs_1')]);
    given([opened, started('cs_1')])
      .when(checkout('cs_1'))
      .thenNothingHappens();
    given([opened, started('cs_1')])
      .when(checkout('cs_2'))
      .thenThrows('checkout_in_progress', undefined, {
        sessionId: 'cs_1',
        url: 'https://checkout/cs_1',
      });
    given([opened, started('cs_1')])
      .when(checkout('cs_2', new Date('2026-11-21T10:31:00Z')))
      .then([started('cs_2')]);
    const closed: CreditEvent = {
      type: 'SubscriptionCheckoutClosed',
      data: { sessionId: 'cs_1', outcome: 'canceled' },
    };
    given([opened, started('cs_1')])
      .when({ type: 'CloseSubscriptionCheckout', sessionId: 'cs_1', outcome: 'canceled' })
      .then([closed]);
    given([opened, started('cs_1'), closed])
      .when(checkout('cs_2'))
      .then([started('cs_2')]);
    given([opened, started('cs_1'), activated()])
      .when(checkout('cs_2'))
      .thenThrows('subscription_active');
  });
  it('refuses a checkout and a second subscription while a plan runs, cancelled or not', () => {
    given([opened, activated()])
      .when(checkout('cs_2'))
      .thenThrows(
        'subscription_active',
        'You already have the Starter plan. To switch, change your plan instead of subscribing again.',
      );
    given([opened, activated()])
      .when({ type: 'ActivateSubscription', tier: starter, subscriptionId: 'sub_2', now })
      .thenThrows('subscription_active');
    const cancelled: CreditEvent = {
      type: 'SubscriptionCancelled',
      data: { reason: 'user_requested', accessUntil: '2026-12-01' },
    };
    given([opened, activated(), cancelled])
      .when(checkout('cs_2'))
      .thenThrows('subscription_active');
    const ended: CreditEvent = { type: 'SubscriptionEnded', data: { reason: 'stripe' } };
    given([opened, activated(), cancelled, ended])
      .when(checkout('cs_2'))
      .then([started('cs_2')]);
  });
  it('keeps a changed plan when an older invoice names the old tier, and resumes the plan it has', () => {
    const explorer: Tier = { tierId: 2, tierName: 'Explorer', creditsPerMonth: 120 };
    const changed: CreditEvent = {
      type: 'SubscriptionPlanChanged',
      data: {
        fromTierId: 1,
        tierId: 2,
        tierName: 'Explorer',
        creditsPerMonth: 120,
        effectiveFrom: '2026-11-01',
      },
    };
    given([opened, activated(), changed])
      .when({ type: 'ActivateSubscription', tier: starter, subscriptionId: 'sub_1', now })
      .thenNothingHappens();
    const cancelled: CreditEvent = {
      type: 'SubscriptionCancelled',
      data: { reason: 'cancel_at_period_end', accessUntil: '2026-11-01' },
    };
    given([opened, activated(), changed, cancelled])
      .when({
        type: 'ActivateSubscription',
        tier: starter,
        subscriptionId: 'sub_1',
        now,
        resume: true,
      })
      .then([
        {
          type: 'SubscriptionActivated',
          data: { ...explorer, subscriptionId: 'sub_1', nextRenewalDate: '2026-11-01' },
        },
      ]);
  });
  it('changes plan from the next renewal, refusing the same plan and no plan', () => {
    const explorer: Tier = { tierId: 2, tierName: 'Explorer', creditsPerMonth: 120 };
    given([opened, activated('2026-12-01')])
      .when({ type: 'ChangePlan', tier: explorer })
      .then([
        {
          type: 'SubscriptionPlanChanged',
          data: {
            fromTierId: 1,
            tierId: 2,
            tierName: 'Explorer',
            creditsPerMonth: 120,
            effectiveFrom: '2026-12-01',
          },
        },
      ]);
    given([opened, activated()])
      .when({ type: 'ChangePlan', tier: starter })
      .thenThrows('same_plan');
    given([opened])
      .when({ type: 'ChangePlan', tier: explorer })
      .thenThrows('no_active_subscription');
  });
});

describe('balance', () => {
  it('is the sum of every event’s signed change, and total earned counts grants only', () => {
    const history: CreditEvent[] = [
      opened,
      free(10),
      granted(100),
      spent(24),
      { type: 'SpendRefunded', data: { spendId: 's-24', amount: 24, reason: 'generation_failed' } },
      { type: 'CreditsAdjusted', data: { amount: -6, reason: 'Correction', adminId: 'a' } },
      { type: 'CreditsAdjusted', data: { amount: 5, reason: 'Goodwill', adminId: 'a' } },
    ];
    const state = fold(creditAccountDecider, history);
    expect(state.balance).toBe(history.reduce((sum, e) => sum + balanceChange(e), 0));
    expect(state.balance).toBe(109);
    expect(state.totalGranted).toBe(115);
  });
});

describe('balance ceiling', () => {
  // Below the ceiling by `room` credits: balance and total granted both at MAX_BALANCE − room.
  const near = (room: number): CreditEvent[] => [opened, granted(MAX_BALANCE - room, 'big')];
  const grant = (amount: number, grantId = 'g-next'): CreditCommand => ({
    type: 'GrantCredits',
    grantId,
    kind: 'promotional',
    amount,
    reason: 'Goodwill',
    tierId: null,
    reference: null,
  });

  it('is a billion credits: far above any account, far below 2^53 and the bigint columns', () => {
    expect(MAX_BALANCE).toBe(1_000_000_000);
    expect(MAX_BALANCE * 1_000_000 < Number.MAX_SAFE_INTEGER).toBe(true);
  });

  it('grants up to the ceiling exactly, and refuses a grant past it with balance_limit', () => {
    given(near(100))
      .when(grant(100))
      .then([
        {
          type: 'CreditsGranted',
          data: {
            grantId: 'g-next',
            kind: 'promotional',
            amount: 100,
            reason: 'Goodwill',
            tierId: null,
            reference: null,
          },
        },
      ]);
    given(near(100))
      .when(grant(101))
      .thenThrows('balance_limit', undefined, { limit: MAX_BALANCE, amount: 101 });
    // A grant that was made already stays a no-op, not a refusal.
    given(near(0)).when(grant(5, 'big')).thenNothingHappens();
  });

  it('refuses the free allotment, a positive adjustment and a monthly grant past it', () => {
    given(near(5)).when({ type: 'GrantFreeAllotment', amount: 10 }).thenThrows('balance_limit');
    given(near(5))
      .when({ type: 'AdjustCredits', amount: 6, reason: 'Goodwill', adminId: 'a' })
      .thenThrows('balance_limit');
    // A deduction is always allowed, even at the ceiling.
    given(near(0))
      .when({ type: 'AdjustCredits', amount: -6, reason: 'Correction', adminId: 'a' })
      .then([
        {
          type: 'CreditsAdjusted',
          data: {
            amount: -6,
            reason: 'Correction',
            adminId: 'a',
            lots: [{ lot: 'big', source: 'purchased', amount: 6 }],
          },
        },
      ]);
    given([...near(59), activated('2026-11-01')])
      .when({
        type: 'GrantMonthlyCredits',
        tier: starter,
        period: '2026-11',
        trigger: 'renewal',
        reference: null,
        now,
      })
      .thenThrows('balance_limit');
    given([...near(59), activated('2026-11-01')])
      .when({ type: 'RefreshMonthlyCredits', tier: starter, now })
      .thenThrows('balance_limit');
  });

  it('counts the total ever granted too: spending does not make room for more grants', () => {
    const history = [...near(0), spent(500, 's-1')];
    expect(fold(creditAccountDecider, history).balance).toBe(MAX_BALANCE - 500);
    given(history).when(grant(100)).thenThrows('balance_limit');
  });

  it('refuses a refund of a spend that would take the balance past it', () => {
    // An account past the ceiling from before it existed: its history replays as recorded.
    const history: CreditEvent[] = [opened, granted(MAX_BALANCE + 50, 'old'), spent(100, 's-1')];
    expect(fold(creditAccountDecider, history).balance).toBe(MAX_BALANCE - 50);
    given(history)
      .when({ type: 'RefundSpend', spendId: 's-1', reason: 'generation_failed' })
      .thenThrows('balance_limit');
    // Spending and deducting still work on such an account.
    given(history)
      .when(spend(10, 's-2'))
      .then([spent(10, 's-2')]);
  });
});
