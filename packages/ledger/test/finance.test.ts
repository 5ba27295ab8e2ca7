import type { CreditEvent, MoneyAmount } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
  bookMoney,
  type CreditAccount,
  closeRollForward,
  creditAccountDecider,
  deferredOf,
  initialAccountMoney,
  openRollForward,
  rollForward,
} from '../src/index.ts';

/** Books events in order; returns the account and every figure summed. */
const book = (events: CreditEvent[]) => {
  const account = initialAccountMoney();
  const sum = (into: Record<string, number>, amounts: readonly MoneyAmount[]) => {
    for (const { currency, minor } of amounts) into[currency] = (into[currency] ?? 0) + minor;
  };
  const cash: Record<string, number> = {};
  const recognized: Record<string, number> = {};
  const adminDeducted: Record<string, number> = {};
  const lotValues: MoneyAmount[][] = [];
  for (const event of events) {
    const effect = bookMoney(account, event);
    sum(cash, effect.cash ? [effect.cash] : []);
    sum(recognized, effect.recognized);
    sum(adminDeducted, effect.adminDeducted);
    lotValues.push([...effect.lotValue]);
  }
  return { account, cash, recognized, adminDeducted, deferred: deferredOf(account), lotValues };
};

const opened: CreditEvent = { type: 'CreditAccountOpened', data: { userId: 'u' } };
const pack = (credits: number, amountMinor: number | null, pi = 'pi_1'): CreditEvent => ({
  type: 'CreditsGranted',
  data: {
    grantId: `checkout:${pi}`,
    kind: 'purchase',
    amount: credits,
    reason: 'Pack',
    tierId: 2,
    reference: { paymentIntentId: pi },
    ...(amountMinor === null ? {} : { payment: { amountMinor, currency: 'eur' } }),
  },
});
const spend = (amount: number, spendId = `s${amount}`): CreditEvent => ({
  type: 'CreditsSpent',
  data: { spendId, amount, purpose: 'reading', description: 'Reading', appId: 1, readingId: 'r' },
});
const refunded = (refundedMinor: number, amountMinor: number, pi = 'pi_1'): CreditEvent => ({
  type: 'PaymentRefunded',
  data: { paymentIntentId: pi, chargeId: 'ch_1', amountMinor, refundedMinor, currency: 'eur' },
});
const reversed = (amount: number, shortfall: number, refundedMinor: number): CreditEvent => ({
  type: 'PurchaseReversed',
  data: {
    grantId: 'checkout:pi_1',
    amount,
    shortfall,
    reference: null,
    refund: {
      paymentIntentId: 'pi_1',
      chargeId: 'ch_1',
      refundedMinor,
      paidMinor: 1000,
      currency: 'eur',
    },
  },
});
const eur = (minor: number) => (minor === 0 ? [] : [{ currency: 'eur', minor }]);

describe('the money behind credits', () => {
  it('given a paid pack, when some credits are spent, then their share is recognized and the rest deferred', () => {
    const books = book([opened, pack(100, 1000), spend(30)]);
    expect(books.cash).toEqual({ eur: 1000 });
    expect(books.recognized).toEqual({ eur: 300 });
    expect(books.deferred).toEqual(eur(700));
  });

  it('given a pack whose price does not divide, when every credit is spent one by one, then exactly the price is recognized', () => {
    const books = book([opened, pack(3, 1799), spend(1, 'a'), spend(1, 'b'), spend(1, 'c')]);
    expect(books.lotValues.slice(2).map((v) => v[0]?.minor)).toEqual([599, 600, 600]);
    expect(books.recognized).toEqual({ eur: 1799 });
    expect(books.deferred).toEqual([]);
  });

  it('given free and promotional credits first, when they are spent, then nothing is recognized', () => {
    const books = book([
      opened,
      { type: 'FreeCreditsGranted', data: { amount: 10 } },
      pack(100, 1000),
      spend(10),
    ]);
    expect(books.recognized).toEqual({});
    expect(books.deferred).toEqual(eur(1000));
  });

  it('given an unspent pack, when half its money is refunded and half its credits reversed, then it nets to nothing recognized', () => {
    const books = book([opened, pack(100, 1000), refunded(500, 500), reversed(50, 0, 500)]);
    expect(books.cash).toEqual({ eur: 500 });
    expect(books.recognized.eur ?? 0).toBe(0);
    expect(books.deferred).toEqual(eur(500));
  });

  it('given a pack partly spent, when all of it is refunded, then recognized goes back to zero', () => {
    const books = book([
      opened,
      pack(100, 1000),
      spend(60),
      refunded(1000, 1000),
      reversed(40, 60, 1000),
    ]);
    expect(books.cash.eur).toBe(0);
    expect(books.recognized.eur).toBe(0);
    expect(books.deferred).toEqual([]);
  });

  it('given a refunded spend, when it is given back, then its value returns to the lot', () => {
    const books = book([
      opened,
      pack(10, 1000),
      spend(4, 'x'),
      {
        type: 'SpendRefunded',
        data: {
          spendId: 'x',
          amount: 4,
          reason: 'generation_failed',
          lots: [{ lot: 'checkout:pi_1', source: 'purchased', amount: 4 }],
        },
      },
    ]);
    expect(books.recognized.eur).toBe(0);
    expect(books.deferred).toEqual(eur(1000));
    expect([...books.account.values.values()]).toEqual([
      {
        lot: 'checkout:pi_1',
        currency: 'eur',
        valueMinor: 1000,
        paidAt: null,
      },
    ]);
  });

  it('given a paid subscription month, when its payment is refunded and the credits kept, then the refund comes off recognized', () => {
    const books = book([
      opened,
      {
        type: 'MonthlyCreditsGranted',
        data: {
          period: '2026-11',
          tierId: 1,
          tierName: 'Starter',
          amount: 60,
          previousBalance: 0,
          rolledOver: 0,
          nextRenewalDate: '2026-12-01',
          grantedOn: '2026-11-01',
          trigger: 'renewal',
          reference: { subscriptionId: 'sub_1', paymentIntentId: 'pi_9' },
          payment: { amountMinor: 1200, currency: 'eur' },
        },
      },
      refunded(1200, 1200, 'pi_9'),
    ]);
    expect(books.cash.eur).toBe(0);
    expect(books.recognized.eur).toBe(-1200);
    expect(books.deferred).toEqual(eur(1200));
  });

  it('given an old log without amounts, when it is replayed, then it holds no money and still balances', () => {
    const books = book([opened, pack(100, null), spend(30)]);
    expect(books.cash).toEqual({});
    expect(books.recognized).toEqual({});
    expect(books.account.balance).toBe(70);
  });

  it('given an old whole reversal that names its refund only cumulatively, when replayed, then the refund money counts once', () => {
    const books = book([opened, pack(100, 1000), reversed(100, 0, 1000), reversed(0, 0, 1000)]);
    expect(books.cash.eur).toBe(0);
    expect(books.recognized.eur ?? 0).toBe(0);
  });
});

/** A paid subscription month of 60 credits for 333 (USD cents). */
const paidMonth: CreditEvent = {
  type: 'MonthlyCreditsGranted',
  data: {
    period: '2026-11',
    tierId: 1,
    tierName: 'Starter',
    amount: 60,
    previousBalance: 10,
    rolledOver: 0,
    nextRenewalDate: '2026-12-01',
    grantedOn: '2026-11-01',
    trigger: 'renewal',
    reference: { subscriptionId: 'sub_1', invoiceId: 'in_1' },
    payment: { amountMinor: 333, currency: 'usd' },
  },
};
const welcome: CreditEvent = { type: 'FreeCreditsGranted', data: { amount: 10 } };
const foldAll = (events: CreditEvent[]) =>
  events.reduce(creditAccountDecider.evolve, creditAccountDecider.initialState());
const deduct = (state: CreditAccount, amount: number) =>
  creditAccountDecider.decide(
    { type: 'AdjustCredits', amount: -amount, reason: 'Chargeback pending review', adminId: 'a' },
    state,
  );

describe('admin deductions in the books', () => {
  it('given free credits and a paid subscription month, when an admin deducts no more than the free credits, then only free credits go and no money moves', () => {
    const history = [opened, welcome, paidMonth];
    const events = deduct(foldAll(history), 10);
    expect(events).toEqual([
      {
        type: 'CreditsAdjusted',
        data: {
          amount: -10,
          reason: 'Chargeback pending review',
          adminId: 'a',
          lots: [{ lot: 'free', source: 'free', amount: 10 }],
        },
      },
    ]);
    const books = book([...history, ...events]);
    expect(books.recognized).toEqual({});
    expect(books.adminDeducted).toEqual({});
    // The paid month is whole: all its value is still owed in readings.
    expect(books.deferred).toEqual([{ currency: 'usd', minor: 333 }]);
  });

  it('given paid credits only, when an admin deducts them, then their value is an admin deduction, not recognized revenue', () => {
    const history = [opened, paidMonth];
    const events = deduct(foldAll(history), 60);
    const books = book([...history, ...events]);
    expect(books.lotValues.at(-1)).toEqual([{ currency: 'usd', minor: 333 }]);
    expect(books.recognized).toEqual({});
    expect(books.adminDeducted).toEqual({ usd: 333 });
    expect(books.cash).toEqual({ usd: 333 });
    expect(books.deferred).toEqual([]);
  });

  it('given an old deduction that names no lots, when it is replayed, then it takes the spending order as it did when written (the paid month first), booked as an admin deduction', () => {
    const old: CreditEvent = {
      type: 'CreditsAdjusted',
      data: { amount: -10, reason: 'Chargeback pending review', adminId: 'a' },
    };
    const state = foldAll([opened, welcome, paidMonth, old]);
    expect(state.lots).toEqual([
      { id: 'free', source: 'free', remaining: 10 },
      { id: 'month:sub_1:2026-11', source: 'subscription', remaining: 50 },
    ]);
    const books = book([opened, welcome, paidMonth, old]);
    // ⌊333 × 10 ÷ 60⌋ = 55, as the old replay took it; no longer called recognized.
    expect(books.lotValues.at(-1)).toEqual([{ currency: 'usd', minor: 55 }]);
    expect(books.recognized).toEqual({});
    expect(books.adminDeducted).toEqual({ usd: 55 });
    expect(books.deferred).toEqual([{ currency: 'usd', minor: 278 }]);
  });
});

describe('the monthly credit roll-forward', () => {
  it('adds incoming lines, subtracts outgoing ones, and flags a difference with the balances', () => {
    let report = openRollForward(50);
    for (const event of [
      pack(100, 1000),
      spend(30),
      { type: 'CreditsAdjusted', data: { amount: -5, reason: 'r', adminId: 'a' } } as CreditEvent,
      {
        type: 'CreditsSpent',
        data: {
          spendId: 'v',
          amount: 2,
          purpose: 'voice_reactivation',
          description: 'Voice',
          appId: null,
          readingId: 'r',
        },
      } as CreditEvent,
    ])
      report = rollForward(report, event);
    expect(report).toMatchObject({
      purchased: 100,
      spentReadings: 30,
      spentVoice: 2,
      adminAdjustments: -5,
    });
    expect(report.closing).toBe(50 + 100 - 30 - 5 - 2);
    expect(closeRollForward(report, 113).difference).toBe(0);
    expect(closeRollForward(report, 110).difference).toBe(-3);
  });
});
