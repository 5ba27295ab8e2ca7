/** Monthly plans: activation, monthly grants and the rollover, cancellation, one plan per account. */
import type { CreditEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
  type CreditCommand,
  creditAccountDecider,
  fold,
  lotTotals,
  refreshSummary,
  type Tier,
} from '../src/index.ts';
import { activated, free, given, granted, month, now, opened, starter } from './creditHistory.ts';

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
