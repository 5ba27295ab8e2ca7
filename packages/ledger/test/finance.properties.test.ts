import {
  type CreditEvent,
  type CreditPayment,
  type MoneyAmount,
  readingKinds,
  type TaxAmount,
} from '@astra/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AccountMoney,
  bookBalance,
  bookMoney,
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  deferredOf,
  initialAccountMoney,
  isDomainError,
  lotMovesOf,
  lotsToTake,
  lotTotals,
  type MoneyEffect,
  type StripeBalanceCommand,
  stripeBalanceDecider,
  type Tier,
} from '../src/index.ts';

/**
 * Random histories with money: packs paid in two currencies (odd amounts, so shares round),
 * paid subscription months, spends and their refunds, partial and whole refunds of purchases
 * (some before their purchase), refunds of subscription months, admin adjustments, account
 * deletion, and disputes of packs' payments (held, won, lost). Some payments record their tax
 * (Stripe Tax), some none (old events). Between them, Stripe pays out and its payouts fail, and a
 * dispute's money is withdrawn and returned (`stripe-balance`), listing balance transactions with
 * fees, some listed again, some events delivered twice. Every event goes through the money fold,
 * and after each one: Stripe's balance (cash − fees − paid out − disputes) = recognized + admin
 * deductions + deferred + tax payable − fees − paid out − disputes to the minor unit in each
 * currency, each fee and each dispute's money is booked once, what is paid out is what the paid
 * payouts hold, deferred is what the lots hold, and the fold's lots are the decider's.
 */
const tiers: Tier[] = [
  { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 },
  { tierId: 2, tierName: 'Explorer', creditsPerMonth: 120 },
];
const now = new Date('2026-11-21T10:00:00Z');
/** What each payment intent paid: odd amounts, two currencies, with tax or without (old). */
const paid: Record<string, CreditPayment> = {
  pi_0: {
    amountMinor: 1799,
    currency: 'eur',
    tax: { amountMinor: 287, country: 'DE', ratePercent: 19 },
  },
  pi_1: {
    amountMinor: 999,
    currency: 'eur',
    tax: { amountMinor: 173, country: 'IT', ratePercent: 22 },
  },
  pi_2: { amountMinor: 4999, currency: 'usd' },
  pi_3: {
    amountMinor: 7,
    currency: 'usd',
    tax: { amountMinor: 1, country: null, ratePercent: null },
  },
  pi_4: { amountMinor: 0, currency: 'eur' },
  pi_5: {
    amountMinor: 1210,
    currency: 'eur',
    tax: { amountMinor: 0, country: 'US', ratePercent: 0 },
  },
};
/** What a subscription month paid, by tier (the Starter's with tax, the Explorer's without). */
const monthPaid: Record<number, CreditPayment> = {
  1: {
    amountMinor: 1301,
    currency: 'eur',
    tax: { amountMinor: 208, country: 'FR', ratePercent: 20 },
  },
  2: { amountMinor: 2203, currency: 'usd' },
};
const invoiceOf = (tierId: number, period: string) => `in_${tierId}_${period}`;
const periodOf = (month: number) => `2026-${String(month).padStart(2, '0')}`;
const paymentIntent = fc.constantFrom(...Object.keys(paid));

/**
 * Payouts (each in one currency, of one amount) and the fee of each balance transaction. The
 * transaction of index 3 is a dispute's withdrawal (an `adjustment` of `du_3`), which a dispute's
 * own event lists too.
 */
const payouts: Record<string, { currency: string; amountMinor: number }> = {
  po_0: { currency: 'eur', amountMinor: 2500 },
  po_1: { currency: 'eur', amountMinor: 733 },
  po_2: { currency: 'usd', amountMinor: 4120 },
};
const transactionFees = [82, 59, 0, 1500, 31];
type BalanceCommand = StripeBalanceCommand;
const payoutCommand: fc.Arbitrary<BalanceCommand> = fc
  .record({
    payoutId: fc.constantFrom(...Object.keys(payouts)),
    status: fc.constantFrom('paid' as const, 'failed' as const),
    // A small pool: some deliveries come twice.
    event: fc.integer({ min: 0, max: 30 }),
    listed: fc.uniqueArray(fc.integer({ min: 0, max: transactionFees.length - 1 }), {
      maxLength: 3,
    }),
  })
  .map(({ payoutId, status, event, listed }) => {
    const { currency, amountMinor } = payouts[payoutId]!;
    return {
      type: 'RecordPayout',
      eventId: `evt_${event}`,
      payout: { id: payoutId, amountMinor, currency, arrivalDate: now.toISOString(), status },
      // A transaction belongs to one currency's balance: its id says which.
      transactions: listed.map((i) => transactionOf(currency, i)),
    };
  });

/** Balance transaction `i` of a currency's balance (its id says which): 3 is a dispute's. */
const transactionOf = (currency: string, i: number) =>
  i === 3
    ? disputeTransaction(currency, 'withdrawn')
    : {
        id: `txn_${currency}_${i}`,
        type: 'charge',
        currency,
        amountMinor: 1000,
        feeMinor: transactionFees[i]!,
        netMinor: 1000 - transactionFees[i]!,
        sourceId: `ch_${i}`,
      };
/** The money of dispute `du_3` in a currency: withdrawn (with the dispute fee), or returned. */
const disputeTransaction = (currency: string, kind: 'withdrawn' | 'returned') => ({
  id: kind === 'withdrawn' ? `txn_${currency}_3` : `txn_${currency}_3r`,
  type: 'adjustment',
  currency,
  amountMinor: kind === 'withdrawn' ? -1000 : 1000,
  feeMinor: kind === 'withdrawn' ? transactionFees[3]! : 0,
  netMinor: kind === 'withdrawn' ? -1000 - transactionFees[3]! : 1000,
  sourceId: 'du_3',
});
/** A dispute's events: opened or lost (its withdrawal), won (the money returned too). */
const disputeMoneyCommand: fc.Arbitrary<BalanceCommand> = fc
  .record({
    currency: fc.constantFrom('eur', 'usd'),
    status: fc.constantFrom('needs_response', 'won', 'lost'),
    event: fc.integer({ min: 0, max: 30 }),
  })
  .map(({ currency, status, event }) => ({
    type: 'RecordDispute',
    eventId: `evt_du_${event}`,
    dispute: { id: 'du_3', chargeId: 'ch_3', amountMinor: 1000, currency, status },
    transactions: [
      disputeTransaction(currency, 'withdrawn'),
      ...(status === 'won' ? [disputeTransaction(currency, 'returned')] : []),
    ],
  }));

/**
 * Disputes of a pack's payment, of all of it or a part: opened (its credits held), then won or
 * lost (taken back); some closed without an opening, some delivered twice.
 */
const disputeCommand: fc.Arbitrary<CreditCommand> = fc
  .record({
    pi: paymentIntent,
    dispute: fc.integer({ min: 0, max: 3 }),
    status: fc.constantFrom('needs_response', 'won', 'lost'),
    share: fc.constantFrom(0.5, 1),
  })
  .map(({ pi, dispute, status, share }): CreditCommand => {
    const paidMinor = Math.max(paid[pi]!.amountMinor, 1);
    const disputed = {
      disputeId: `du_${dispute}_${pi}`,
      chargeId: `ch_${pi}`,
      paymentIntentId: pi,
      amountMinor: Math.max(Math.round(paidMinor * share), 1),
      currency: paid[pi]!.currency,
    };
    return status === 'needs_response'
      ? { type: 'OpenDispute', ...disputed }
      : { type: 'CloseDispute', ...disputed, status, paidMinor };
  });

const creditCommand: fc.Arbitrary<CreditCommand> = fc.oneof(
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
  // A refund or a dispute of a payment (one slot: the other commands come as often as before).
  fc.oneof(
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
    disputeCommand,
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
      referenced: fc.boolean(),
    })
    .map(
      ({ tier, month, referenced }): CreditCommand => ({
        type: 'GrantMonthlyCredits',
        tier,
        period: periodOf(month),
        trigger: 'renewal',
        reference: referenced
          ? { subscriptionId: 'sub_1', invoiceId: invoiceOf(tier.tierId, periodOf(month)) }
          : null,
        now,
        payment: monthPaid[tier.tierId]!,
      }),
    ),
  fc
    .record({
      tier: fc.constantFrom(...tiers),
      month: fc.integer({ min: 1, max: 12 }),
      subscriptionId: fc.constantFrom('sub_1', 'sub_2'),
      share: fc.constantFrom(0.3, 0.5, 1),
    })
    .map(({ tier, month, subscriptionId, share }): CreditCommand => {
      const { amountMinor, currency } = monthPaid[tier.tierId]!;
      const invoiceId = invoiceOf(tier.tierId, periodOf(month));
      return {
        type: 'RecordPaymentRefund',
        paymentIntentId: `pi_${invoiceId}`,
        chargeId: `ch_${invoiceId}`,
        refundedMinor: Math.round(amountMinor * share),
        paidMinor: amountMinor,
        currency,
        invoiceId,
        subscriptionId,
        period: periodOf(month),
      };
    }),
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
    // A shipped kind's app, an app no kind has, none (old spends).
    appId: fc.constantFrom(readingKinds['natal-chart'].appId, 99, null),
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

/** What a history runs: the account's commands, and Stripe's payouts between them. */
type HistoryCommand = CreditCommand | BalanceCommand;
const command: fc.Arbitrary<HistoryCommand> = fc.oneof(
  { weight: 9, arbitrary: creditCommand },
  { weight: 1, arbitrary: fc.oneof(payoutCommand, disputeMoneyCommand) },
);
const isBalance = (c: HistoryCommand): c is BalanceCommand =>
  c.type === 'RecordPayout' || c.type === 'RecordDispute';

type Totals = Record<
  | 'cash'
  | 'recognized'
  | 'adminDeducted'
  | 'deferred'
  | 'taxPayable'
  | 'fees'
  | 'paidOut'
  | 'disputes',
  Map<string, number>
>;
const add = (sums: Map<string, number>, amounts: readonly MoneyAmount[]) => {
  for (const { currency, minor } of amounts) sums.set(currency, (sums.get(currency) ?? 0) + minor);
};
const nonZero = (sums: Map<string, number>) =>
  Object.fromEntries([...sums].filter(([, minor]) => minor !== 0));

/** One event as it was decided and booked: the account before and after, and its money. */
interface Booked {
  event: CreditEvent;
  /** When it happened: the n-th event of a history, n minutes into 2026. */
  at: string;
  before: CreditAccount;
  after: CreditAccount;
  effect: MoneyEffect;
}

/**
 * Stripe's balance as it must stand, kept apart from the decider: each Stripe event counts once;
 * every listed transaction's fee counts once, and a dispute transaction's money once (withdrawn
 * +, returned −); a payout's amount counts while it stands paid.
 */
class BalanceModel {
  private readonly events = new Set<string>();
  private readonly fees = new Map<string, { currency: string; minor: number }>();
  private readonly disputed = new Map<string, { currency: string; minor: number }>();
  private readonly status = new Map<string, 'paid' | 'failed'>();

  record(command: BalanceCommand) {
    if (this.events.has(command.eventId)) return;
    this.events.add(command.eventId);
    for (const t of command.transactions) {
      if (this.fees.has(t.id)) continue;
      this.fees.set(t.id, { currency: t.currency, minor: t.feeMinor });
      if (t.sourceId?.startsWith('du_'))
        this.disputed.set(t.id, { currency: t.currency, minor: -t.amountMinor });
    }
    if (command.type === 'RecordPayout') this.status.set(command.payout.id, command.payout.status);
  }

  totals() {
    const fees = new Map<string, number>();
    add(fees, [...this.fees.values()]);
    const paidOut = new Map<string, number>();
    for (const [id, status] of this.status) {
      const { currency, amountMinor } = payouts[id]!;
      if (status === 'paid') add(paidOut, [{ currency, minor: amountMinor }]);
    }
    const disputes = new Map<string, number>();
    add(disputes, [...this.disputed.values()]);
    return { fees: nonZero(fees), paidOut: nonZero(paidOut), disputes: nonZero(disputes) };
  }
}

/** Runs the commands as the command handlers do and books every event's money. */
const run = (commands: HistoryCommand[], onEvent: (booked: Booked) => void = () => {}) => {
  const opened: CreditEvent = { type: 'CreditAccountOpened', data: { userId: 'u' } };
  let state: CreditAccount = creditAccountDecider.evolve(
    creditAccountDecider.initialState(),
    opened,
  );
  const money: AccountMoney = initialAccountMoney();
  bookMoney(money, opened);
  const totals: Totals = {
    cash: new Map(),
    recognized: new Map(),
    adminDeducted: new Map(),
    deferred: new Map(),
    taxPayable: new Map(),
    fees: new Map(),
    paidOut: new Map(),
    disputes: new Map(),
  };
  let balance = stripeBalanceDecider.initialState();
  const balanceModel = new BalanceModel();
  /** Tax payable by currency, country and rate. */
  const taxes = new Map<string, number>();
  const paymentsIn = new Map<string, number>();
  let n = 0;
  for (const c of commands) {
    if (isBalance(c)) {
      balanceModel.record(c);
      for (const event of stripeBalanceDecider.decide(c, balance)) {
        balance = stripeBalanceDecider.evolve(balance, event);
        const effect = bookBalance(event);
        add(totals.fees, effect.fees);
        add(totals.paidOut, effect.paidOut);
        add(totals.disputes, effect.disputes);
        checkBooks(state, money, totals);
      }
      expect(balanceModel.totals()).toEqual({
        fees: nonZero(totals.fees),
        paidOut: nonZero(totals.paidOut),
        disputes: nonZero(totals.disputes),
      });
      continue;
    }
    let events: CreditEvent[] = [];
    try {
      events = creditAccountDecider.decide(c, state);
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
    for (const event of events) {
      const before = state;
      state = creditAccountDecider.evolve(state, event);
      const at = new Date(Date.UTC(2026, 0, 1, 0, n++)).toISOString();
      const effect = bookMoney(money, event, { at });
      onEvent({ event, at, before, after: state, effect });
      add(totals.cash, effect.cash ? [effect.cash] : []);
      add(paymentsIn, effect.cash && effect.cash.minor > 0 ? [effect.cash] : []);
      add(totals.recognized, effect.recognized);
      add(totals.adminDeducted, effect.adminDeducted);
      add(totals.deferred, effect.deferred);
      add(totals.taxPayable, effect.taxPayable);
      addTaxes(taxes, effect.taxPayable);
      checkBooks(state, money, totals);
    }
  }
  return { state, money, totals, paymentsIn, taxes };
};

const addTaxes = (sums: Map<string, number>, taxes: readonly TaxAmount[]) => {
  for (const { currency, country, ratePercent, minor } of taxes) {
    const key = `${currency} ${country} ${ratePercent}`;
    sums.set(key, (sums.get(key) ?? 0) + minor);
  }
};

const checkBooks = (state: CreditAccount, money: AccountMoney, totals: Totals) => {
  // Stripe's balance (cash − fees − paid out − disputes) = recognized + admin deductions +
  // deferred + tax payable − fees − paid out − disputes, to the minor unit, in each currency.
  const amounts = (sums: Map<string, number>, sign = 1) =>
    [...sums].map(([currency, minor]) => ({ currency, minor: sign * minor }));
  const outOfStripe = [totals.fees, totals.paidOut, totals.disputes].flatMap((sums) =>
    amounts(sums, -1),
  );
  const clearing = new Map(totals.cash);
  add(clearing, outOfStripe);
  const accounted = new Map(totals.recognized);
  for (const part of [totals.adminDeducted, totals.deferred, totals.taxPayable])
    add(accounted, amounts(part));
  add(accounted, outOfStripe);
  expect(nonZero(clearing)).toEqual(nonZero(accounted));
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

/** A pack paid with its tax (`pi_0`), then half of its payment refunded. */
const taxedPackThenRefund: [HistoryCommand, HistoryCommand] = [
  {
    type: 'GrantCredits',
    grantId: 'checkout:pi_0',
    kind: 'purchase',
    amount: 100,
    reason: 'Credit pack',
    tierId: 2,
    reference: { paymentIntentId: 'pi_0' },
    payment: paid.pi_0!,
  },
  {
    type: 'RefundPurchase',
    paymentIntentId: 'pi_0',
    chargeId: 'ch_pi_0',
    refundedMinor: 900,
    paidMinor: paid.pi_0!.amountMinor,
    currency: paid.pi_0!.currency,
  },
];

describe('money on the ledger over random histories', () => {
  it('keeps Stripe’s balance (cash − fees − paid out − disputes) = recognized + admin deductions + deferred + tax payable − fees − paid out − disputes in each currency after every event', () => {
    let taxed = 0;
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        run(commands, ({ event, effect }) => {
          if (event.type === 'PaymentRefunded' && event.data.tax?.amountMinor) taxed++;
          // Tax is never negative on a payment nor positive on a refund.
          for (const { minor } of effect.taxPayable)
            expect(Math.sign(minor)).toBe(effect.cash!.minor > 0 ? 1 : -1);
        });
      }),
      {
        numRuns: 500,
        // A taxed pack and a partial refund of it, always: random histories miss that now and
        // then, and the check below would then fail for want of a case.
        examples: [[taxedPackThenRefund]],
      },
    );
    // Refunds gave tax back (the property is not vacuous; the next one refunds taxed payments
    // many times over).
    expect(taxed).toBeGreaterThan(0);
  });

  it('leaves no tax payable on a payment refunded in full, however its refunds came', () => {
    fc.assert(
      fc.property(
        fc.array(command, { maxLength: 60 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.constantFrom(19, 21, 25.5),
        fc.uniqueArray(fc.double({ min: 0.01, max: 0.99, noNaN: true }), { maxLength: 4 }),
        (history, amountMinor, ratePercent, shares) => {
          const taxMinor = Math.round((amountMinor * ratePercent) / (100 + ratePercent));
          const payment: CreditPayment = {
            amountMinor,
            currency: 'eur',
            // A country no other payment has: its tax payable is this payment's alone.
            tax: { amountMinor: taxMinor, country: 'SE', ratePercent },
          };
          const refunds = [...shares.sort(), 1].map(
            (share): CreditCommand => ({
              type: 'RefundPurchase',
              paymentIntentId: 'pi_taxed',
              chargeId: 'ch_taxed',
              refundedMinor: Math.round(amountMinor * share),
              paidMinor: amountMinor,
              currency: 'eur',
            }),
          );
          let given = 0;
          const { taxes } = run(
            [
              ...history.filter((c) => c.type !== 'CloseAccount'),
              {
                type: 'GrantCredits',
                grantId: 'checkout:pi_taxed',
                kind: 'purchase',
                amount: 50,
                reason: 'Credit pack',
                tierId: 2,
                reference: { paymentIntentId: 'pi_taxed' },
                payment,
              },
              ...refunds,
            ],
            ({ event }) => {
              if (event.type !== 'PaymentRefunded' || event.data.paymentIntentId !== 'pi_taxed')
                return;
              expect(event.data.tax).toMatchObject({ country: 'SE', ratePercent });
              given += event.data.tax!.amountMinor;
            },
          );
          expect(given).toBe(taxMinor);
          expect(taxes.get(`eur SE ${ratePercent}`) ?? 0).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('recognizes all that was paid and kept once every credit is gone, never more', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        const { state, totals, paymentsIn } = run([...commands, { type: 'CloseAccount' }]);
        expect(state.balance).toBe(0);
        // Nothing held: recognized, deducted and tax payable are the cash kept, and no currency
        // recognized or deducted more than came in.
        expect(nonZero(totals.deferred)).toEqual({});
        const gone = new Map(totals.recognized);
        for (const part of [totals.adminDeducted, totals.taxPayable])
          add(
            gone,
            [...part].map(([currency, minor]) => ({ currency, minor })),
          );
        expect(nonZero(gone)).toEqual(nonZero(totals.cash));
        for (const [currency, minor] of totals.recognized)
          expect(minor).toBeLessThanOrEqual(paymentsIn.get(currency) ?? 0);
        for (const [currency, minor] of totals.adminDeducted) {
          expect(minor).toBeGreaterThanOrEqual(0);
          expect(minor).toBeLessThanOrEqual(paymentsIn.get(currency) ?? 0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('revenue by line of the books over random histories', () => {
  it('books each recognized amount on its line (reading kind, voice, breakage, refunds, disputes), adding up to recognized', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        const spendLines = new Map<string, string>();
        run(commands, ({ event, effect }) => {
          const byLine = new Map<string, number>();
          add(byLine, effect.revenue);
          expect(nonZero(byLine)).toEqual(
            nonZero(new Map(effect.recognized.map((r) => [r.currency, r.minor]))),
          );
          const lines = new Set(effect.revenue.map((r) => r.line));
          for (const line of lines) seen.add(line);
          switch (event.type) {
            case 'CreditsSpent': {
              const { purpose, appId, spendId } = event.data;
              const line =
                purpose === 'voice_reactivation'
                  ? 'voice'
                  : appId === null
                    ? 'reading:unknown'
                    : appId === 99
                      ? 'reading:app-99'
                      : 'reading:natal-chart';
              spendLines.set(spendId, line);
              for (const l of lines) expect(l).toBe(line);
              break;
            }
            case 'SpendRefunded':
              // Given back off the line the spend went to.
              for (const l of lines) expect(l).toBe(spendLines.get(event.data.spendId));
              break;
            case 'RolloverForfeited':
              for (const l of lines) expect(l).toBe('breakage:rollover');
              break;
            case 'CreditsForfeited':
              for (const l of lines) expect(l).toBe('breakage:deletion');
              break;
            case 'PurchaseReversed':
            case 'PaymentRefunded':
            case 'PurchaseRefundPending':
              for (const l of lines) expect(l).toBe('refunds');
              break;
            case 'DisputeClosed':
              // A lost dispute's credits taken back (its money is Stripe's balance's expense).
              for (const l of lines) expect(l).toBe('disputes');
              if (event.data.won) expect(effect.revenue).toEqual([]);
              break;
            default:
              expect(effect.revenue).toEqual([]);
          }
        });
      }),
      // Enough runs that the rare lines (a rollover above the cap, a lost dispute) come up.
      { numRuns: 600 },
    );
    // Every line came up (the property is not vacuous).
    expect([...seen].sort()).toEqual(
      [
        'breakage:deletion',
        'breakage:rollover',
        'disputes',
        'reading:app-99',
        'reading:natal-chart',
        'reading:unknown',
        'refunds',
        'voice',
      ].sort(),
    );
  });

  it('ages what the lots hold by the time each was paid for', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        // The times each lot was paid into.
        const paidAt = new Map<string, Set<string>>();
        const { money } = run(commands, ({ event, at, before, effect }) => {
          if (!effect.cash || effect.cash.minor <= 0) return;
          const lot = lotMovesOf(before.lots, event).added[0]!.lot;
          paidAt.set(lot, new Set([...(paidAt.get(lot) ?? []), at]));
        });
        for (const value of money.values.values())
          expect(paidAt.get(value.lot)?.has(value.paidAt!)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

/** Free and promotional credits: worth nothing. */
const zeroValue = (state: CreditAccount) => {
  const totals = lotTotals(state.lots);
  return totals.free + totals.promotional;
};

describe('admin deductions over random histories', () => {
  it('take free and promotional credits before any paid ones, and book what they take of paid credits as admin deductions, never as recognized', () => {
    let deductions = 0;
    let paidTaken = 0;
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        run(commands, ({ event, before, after, effect }) => {
          if (event.type !== 'CreditsAdjusted') {
            // Nothing else is an admin deduction.
            expect(effect.adminDeducted).toEqual([]);
            return;
          }
          if (event.data.amount > 0) {
            expect(effect.lotValue).toEqual([]);
            return;
          }
          deductions++;
          const amount = -event.data.amount;
          // Zero-value credits first: as many as there were, up to the amount.
          expect(zeroValue(before) - zeroValue(after)).toBe(Math.min(amount, zeroValue(before)));
          // The event says where its credits came from, and they came from there.
          expect(event.data.lots?.reduce((sum, take) => sum + take.amount, 0)).toBe(amount);
          // Its paid value is a line of its own: out of deferred, not recognized.
          expect(effect.recognized).toEqual([]);
          expect(effect.adminDeducted).toEqual(effect.lotValue);
          if (amount <= zeroValue(before)) expect(effect.lotValue).toEqual([]);
          if (effect.adminDeducted.length) paidTaken++;
        });
      }),
      { numRuns: 500 },
    );
    // The histories did deduct, paid credits too (the property is not vacuous).
    expect(deductions).toBeGreaterThan(100);
    expect(paidTaken).toBeGreaterThan(10);
  });

  it('replays a deduction written before it named its lots (an old event) in the spending order, as it was written', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 100 }), (commands) => {
        run(commands, ({ event, before }) => {
          if (event.type !== 'CreditsAdjusted' || event.data.amount > 0) return;
          const { lots: _named, ...old } = event.data;
          const replayed = creditAccountDecider.evolve(before, { type: event.type, data: old });
          // The old event takes what the old rule took: subscription credits first.
          const expected = lotsToTake(before.lots, -event.data.amount);
          const took = before.lots
            .map((lot) => ({
              lot: lot.id,
              source: lot.source,
              amount: lot.remaining - (replayed.lots.find((l) => l.id === lot.id)?.remaining ?? 0),
            }))
            .filter((take) => take.amount > 0);
          const byLot = (a: { lot: string }, b: { lot: string }) => (a.lot < b.lot ? -1 : 1);
          expect(took.sort(byLot)).toEqual(expected.sort(byLot));
          const money = initialAccountMoney();
          money.lots = structuredClone([...before.lots]);
          const effect = bookMoney(money, { type: event.type, data: old });
          expect(effect.recognized).toEqual([]);
          expect(effect.adminDeducted).toEqual(effect.lotValue);
        });
      }),
      { numRuns: 200 },
    );
  });
});
