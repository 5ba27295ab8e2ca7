/** Grants, spends, their refunds, admin adjustments and the lots they make. */
import type { CreditEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
  type CreditCommand,
  creditAccountDecider,
  fold,
  lotTotals,
  REFUNDABLE_SPENDS,
} from '../src/index.ts';
import {
  activated,
  free,
  type GrantCommand,
  given,
  granted,
  month,
  opened,
  spend,
  spent,
} from './creditHistory.ts';

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
