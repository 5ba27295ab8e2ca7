import type { CreditEvent, MoneyAmount } from '@astra/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AccountMoney,
  bookMoney,
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  deferredOf,
  initialAccountMoney,
  isDomainError,
  type Tier,
} from '../src/index.ts';

/**
 * Random histories with money: packs paid in two currencies (odd amounts, so shares round),
 * paid subscription months, spends and their refunds, partial and whole refunds of purchases
 * (some before their purchase), admin adjustments and account deletion. Every event goes through
 * the money fold, and after each one: cash = recognized + deferred to the minor unit in each
 * currency, deferred is what the lots hold, and the fold's lots are the decider's.
 */
const tiers: Tier[] = [
  { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 },
  { tierId: 2, tierName: 'Explorer', creditsPerMonth: 120 },
];
const now = new Date('2026-11-21T10:00:00Z');
/** What each payment intent paid: odd amounts and two currencies. */
const paid: Record<string, { amountMinor: number; currency: string }> = {
  pi_0: { amountMinor: 1799, currency: 'eur' },
  pi_1: { amountMinor: 999, currency: 'eur' },
  pi_2: { amountMinor: 4999, currency: 'usd' },
  pi_3: { amountMinor: 7, currency: 'usd' },
  pi_4: { amountMinor: 0, currency: 'eur' },
};
const paymentIntent = fc.constantFrom(...Object.keys(paid));

const command: fc.Arbitrary<CreditCommand> = fc.oneof(
  fc.record({ pi: paymentIntent, amount: fc.constantFrom(3, 40, 100, 320) }).map(
    ({ pi, amount }): CreditCommand => ({
      type: 'GrantCredits',
      grantId: `checkout:${pi}`,
      kind: 'purchase',
      amount,
      reason: 'Credit pack',
      tierId: 2,
      reference: { paymentIntentId: pi },
      payment: paid[pi]!,
    }),
  ),
  fc.record({ pi: paymentIntent, share: fc.double({ min: 0, max: 1, noNaN: true }) }).map(
    ({ pi, share }): CreditCommand => ({
      type: 'RefundPurchase',
      paymentIntentId: pi,
      chargeId: `ch_${pi}`,
      refundedMinor: Math.round(Math.max(paid[pi]!.amountMinor, 1) * share),
      paidMinor: Math.max(paid[pi]!.amountMinor, 1),
      currency: paid[pi]!.currency,
    }),
  ),
  fc.record({
    type: fc.constant('ActivateSubscription' as const),
    tier: fc.constantFrom(...tiers),
    subscriptionId: fc.constantFrom('sub_1', 'sub_2'),
    now: fc.constant(now),
  }),
  fc
    .record({
      tier: fc.constantFrom(...tiers),
      month: fc.integer({ min: 1, max: 12 }),
      // Grants without a reference share a month's lot across subscriptions (and currencies).
      reference: fc.constantFrom(null, { subscriptionId: 'sub_1' }),
    })
    .map(
      ({ tier, month, reference }): CreditCommand => ({
        type: 'GrantMonthlyCredits',
        tier,
        period: `2026-${String(month).padStart(2, '0')}`,
        trigger: 'renewal',
        reference,
        now,
        payment:
          tier.tierId === 1
            ? { amountMinor: 1301, currency: 'eur' }
            : { amountMinor: 2203, currency: 'usd' },
      }),
    ),
  fc.constantFrom<CreditCommand>(
    { type: 'EndSubscription', reason: 'stripe' },
    { type: 'GrantFreeAllotment', amount: 10 },
  ),
  // Deletion is rare: it ends the history.
  fc.constantFrom<CreditCommand>(
    { type: 'CloseAccount' },
    { type: 'EndSubscription', reason: 'x' },
    { type: 'EndSubscription', reason: 'y' },
    { type: 'EndSubscription', reason: 'z' },
  ),
  fc.record({
    type: fc.constant('SpendCredits' as const),
    spendId: fc.integer({ min: 0, max: 12 }).map((n) => `s${n}`),
    amount: fc.integer({ min: 1, max: 90 }),
    purpose: fc.constantFrom('reading' as const, 'voice_reactivation' as const),
    description: fc.constant('Reading'),
    appId: fc.constant(null),
    readingId: fc.constant(null),
  }),
  fc.record({
    type: fc.constant('RefundSpend' as const),
    spendId: fc.integer({ min: 0, max: 12 }).map((n) => `s${n}`),
    reason: fc.constant('generation_failed'),
  }),
  fc.record({
    type: fc.constant('AdjustCredits' as const),
    amount: fc.integer({ min: -80, max: 50 }).filter((n) => n !== 0),
    reason: fc.constant('Correction'),
    adminId: fc.constant('admin'),
  }),
);

type Totals = Record<'cash' | 'recognized' | 'deferred', Map<string, number>>;
const add = (sums: Map<string, number>, amounts: readonly MoneyAmount[]) => {
  for (const { currency, minor } of amounts) sums.set(currency, (sums.get(currency) ?? 0) + minor);
};
const nonZero = (sums: Map<string, number>) =>
  Object.fromEntries([...sums].filter(([, minor]) => minor !== 0));

/** Runs the commands as the command handler does and books every event's money. */
const run = (commands: CreditCommand[]) => {
  const opened: CreditEvent = { type: 'CreditAccountOpened', data: { userId: 'u' } };
  let state: CreditAccount = creditAccountDecider.evolve(
    creditAccountDecider.initialState(),
    opened,
  );
  const money: AccountMoney = initialAccountMoney();
  bookMoney(money, opened);
  const totals: Totals = { cash: new Map(), recognized: new Map(), deferred: new Map() };
  const paymentsIn = new Map<string, number>();
  for (const c of commands) {
    let events: CreditEvent[] = [];
    try {
      events = creditAccountDecider.decide(c, state);
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
    for (const event of events) {
      state = creditAccountDecider.evolve(state, event);
      const effect = bookMoney(money, event);
      add(totals.cash, effect.cash ? [effect.cash] : []);
      add(paymentsIn, effect.cash && effect.cash.minor > 0 ? [effect.cash] : []);
      add(totals.recognized, effect.recognized);
      add(totals.deferred, effect.deferred);
      checkBooks(state, money, totals);
    }
  }
  return { state, money, totals, paymentsIn };
};

const checkBooks = (state: CreditAccount, money: AccountMoney, totals: Totals) => {
  // cash = recognized + deferred, to the minor unit, in each currency.
  const both = new Map(totals.recognized);
  add(
    both,
    [...totals.deferred].map(([currency, minor]) => ({ currency, minor })),
  );
  expect(nonZero(totals.cash)).toEqual(nonZero(both));
  // Deferred is exactly what the held lots are worth; no value without credits to carry it.
  expect(Object.fromEntries(deferredOf(money).map((m) => [m.currency, m.minor]))).toEqual(
    nonZero(totals.deferred),
  );
  for (const value of money.values.values()) {
    expect(value.valueMinor).toBeGreaterThan(0);
    expect(money.lots.some((l) => l.id === value.lot && l.remaining > 0)).toBe(true);
  }
  // The fold moves credits exactly as the decider does.
  expect(money.lots).toEqual(state.lots);
  expect(money.balance).toBe(state.balance);
};

describe('money on the ledger over random histories', () => {
  it('keeps cash = recognized + deferred in each currency after every event', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        run(commands);
      }),
      { numRuns: 500 },
    );
  });

  it('recognizes all that was paid and kept once every credit is gone, never more', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        const { state, totals, paymentsIn } = run([...commands, { type: 'CloseAccount' }]);
        expect(state.balance).toBe(0);
        // Nothing held: recognized is the cash kept, and no currency recognized more than came in.
        expect(nonZero(totals.deferred)).toEqual({});
        expect(nonZero(totals.recognized)).toEqual(nonZero(totals.cash));
        for (const [currency, minor] of totals.recognized)
          expect(minor).toBeLessThanOrEqual(paymentsIn.get(currency) ?? 0);
      }),
      { numRuns: 300 },
    );
  });
});
