import {
  type CreditEvent,
  type LotTake,
  type MoneyAmount,
  type PaymentTax,
  type RevenueLine,
  readingKindOfApp,
  type StripeBalanceEvent,
  type TaxAmount,
} from '@astra/contracts';
import { REFUNDABLE_SPENDS } from '../credits/account.ts';
import { balanceChange } from '../credits/balance.ts';
import { type CreditLot, type LotMoves, lotMovesOf } from '../credits/lots.ts';

/**
 * The money behind one account's credits, by replaying its credit stream. Each paid lot (a
 * purchased pack, a paid subscription month) holds the value paid for it; free, promotional and
 * admin credits are worth nothing. Credits leaving a lot take their share of its value with them:
 *
 * - spent or forfeited: the value is **recognized** (revenue earned, from use);
 * - deducted by an admin (a negative `CreditsAdjusted`): the value leaves deferred as an **admin
 *   deduction**, a line of its own, never revenue from use (no reading was delivered, no money
 *   came in: a deduction is a correction, a chargeback held for review…);
 * - reversed (a refunded purchase taken back): the value leaves the lot and is recognized, and
 *   the refund's money (net of its tax) is taken off recognized again, so a refund of unspent
 *   credits nets to 0;
 * - given back (a refunded spend): the value returns to its lot and leaves recognized.
 *
 * A payment's tax (what Stripe computed in it) is never the lot's: it is **tax payable**, owed to
 * the authorities (by currency, country and rate), and the lot holds the rest (net of tax). A
 * refund gives back its share of the tax: that part leaves tax payable, only the rest leaves
 * recognized.
 *
 * Cash is payments less refunds (gross, tax included); **deferred** is the value still held. Every
 * event keeps cash = recognized + admin deductions + deferred + tax payable, to the minor unit, in
 * each currency.
 */

/**
 * The value left in a paid lot, in one currency. A lot's last credit takes all that is left (no
 * cent strands). A lot usually holds one payment; one that holds payments in two currencies (two
 * grants into one subscription month) has a value in each.
 */
export interface LotValue {
  lot: string;
  currency: string;
  valueMinor: number;
  /** When the lot was paid for (its payment event's time; null when the fold was not told). */
  paidAt: string | null;
}

/** The key of a lot's value in one currency. */
const valueKey = (lot: string, currency: string) => `${currency} ${lot}`;

/** Value a debit took from one lot. */
export interface ValueTake {
  lot: string;
  credits: number;
  currency: string;
  valueMinor: number;
  paidAt: string | null;
}

/** What a remembered spend took, and the revenue line it went to (its refund takes it back). */
export interface SpendValue {
  line: RevenueLine;
  takes: readonly ValueTake[];
}

/**
 * One account's books. A replay folds a million events through these, so the fold updates them
 * in place, lots and values included: an account lives long (the garbage collector moves it to
 * its old generation), and replacing its parts at every event made old garbage for every event.
 * Copy one (`structuredClone`) to keep it.
 */
export interface AccountMoney {
  balance: number;
  /** The lots, as `lotsAfter` would leave them (changed in place). */
  lots: CreditLot[];
  /** Paid lots' remaining value, by lot and currency (lots worth nothing are absent). */
  values: Map<string, LotValue>;
  /** The value each recent spend took (the newest `REFUNDABLE_SPENDS`), for its refund. */
  spends: Map<string, SpendValue>;
  /** The refunded total recorded for each payment intent (refund money is what it grows by). */
  refundedMinor: Map<string, number>;
}

export const initialAccountMoney = (): AccountMoney => ({
  balance: 0,
  lots: [],
  values: new Map(),
  spends: new Map(),
  refundedMinor: new Map(),
});

/** Recognized revenue on one line of the books (`RevenueLine`), in one currency. */
export interface RevenueAmount extends MoneyAmount {
  line: RevenueLine;
}

/** Where an event's money went, by currency: every figure signed, in minor units. */
export interface MoneyEffect {
  /** Money in (a payment, +) or out (a refund, −). */
  cash: MoneyAmount | null;
  /** Value that left the lots (+) or came back to them (−): the "lot values consumed". */
  lotValue: readonly MoneyAmount[];
  /** Revenue from use: spent, forfeited, reversed (+), refunds and spends given back (−). */
  recognized: readonly MoneyAmount[];
  /** `recognized` by the line of the books it goes to (they sum to it in each currency). */
  revenue: readonly RevenueAmount[];
  /** Value of paid credits an admin's deduction took (+): out of deferred, not recognized. */
  adminDeducted: readonly MoneyAmount[];
  deferred: readonly MoneyAmount[];
  /** Tax owed for a payment (+) or given back with a refund (−), by country and rate. */
  taxPayable: readonly TaxAmount[];
  /** Stripe's fees (+), out of Stripe's balance: an expense. */
  fees: readonly MoneyAmount[];
  /** Money paid out of Stripe's balance to the bank (+), or back from a failed payout (−). */
  paidOut: readonly MoneyAmount[];
  /** Money disputes took out of Stripe's balance (+ withdrawn, − returned): an expense. */
  disputes: readonly MoneyAmount[];
}

const noEffect: MoneyEffect = {
  cash: null,
  lotValue: [],
  recognized: [],
  revenue: [],
  adminDeducted: [],
  deferred: [],
  taxPayable: [],
  fees: [],
  paidOut: [],
  disputes: [],
};

/** Tax of a payment or refund as the books hold it, signed (none when it names no tax). */
const taxOf = (currency: string, tax: PaymentTax | undefined, sign: 1 | -1): TaxAmount[] =>
  tax?.amountMinor
    ? [
        {
          currency,
          country: tax.country,
          ratePercent: tax.ratePercent,
          minor: sign * tax.amountMinor,
        },
      ]
    : [];

/** Amounts summed by currency, in first-seen order, zeros dropped. */
export const byCurrency = (amounts: readonly MoneyAmount[]): MoneyAmount[] => {
  if (amounts.length === 1) return amounts[0]!.minor === 0 ? [] : [amounts[0]!];
  const sums = new Map<string, number>();
  for (const { currency, minor } of amounts) sums.set(currency, (sums.get(currency) ?? 0) + minor);
  return [...sums]
    .filter(([, minor]) => minor !== 0)
    .map(([currency, minor]) => ({ currency, minor }));
};

const negated = (amounts: readonly MoneyAmount[]) =>
  amounts.map(({ currency, minor }) => ({ currency, minor: -minor }));

/** `value × part ÷ whole`, rounded down, without losing precision past 2^53. */
const share = (value: number, part: number, whole: number) => {
  if (part >= whole) return value;
  const product = value * part;
  return Number.isSafeInteger(product)
    ? Math.floor(product / whole)
    : Number((BigInt(value) * BigInt(part)) / BigInt(whole));
};

/** The value that credits taken from lots carry, each lot's share of what it holds. */
const valueOfTakes = (account: AccountMoney, taken: readonly LotTake[]): ValueTake[] => {
  const takes: ValueTake[] = [];
  if (account.values.size === 0) return takes;
  for (const take of taken) {
    const lot = account.lots.find((l) => l.id === take.lot);
    if (!lot) continue;
    for (const held of account.values.values()) {
      if (held.lot !== take.lot) continue;
      takes.push({
        lot: take.lot,
        credits: take.amount,
        currency: held.currency,
        valueMinor: share(held.valueMinor, take.amount, lot.remaining),
        paidAt: held.paidAt,
      });
    }
  }
  return takes;
};

/** Adds (or, with `sign` −1, removes) value held by lots. */
const changeValues = (values: Map<string, LotValue>, changes: readonly LotValue[], sign = 1) => {
  for (const { lot, currency, valueMinor, paidAt } of changes) {
    const key = valueKey(lot, currency);
    const held = values.get(key);
    if (!held) {
      if (valueMinor !== 0)
        values.set(key, { lot, currency, valueMinor: sign * valueMinor, paidAt });
      continue;
    }
    held.valueMinor += sign * valueMinor;
    if (held.valueMinor === 0) values.delete(key);
  }
};

/** `applyLotMoves`, in place: taken credits leave their lots (emptied ones go), added ones come. */
const moveLots = (lots: CreditLot[], moves: LotMoves) => {
  if (moves.taken.length) {
    for (const take of moves.taken) {
      const lot = lots.find((l) => l.id === take.lot);
      if (lot) lot.remaining -= take.amount;
    }
    for (let i = lots.length - 1; i >= 0; i--) if (lots[i]!.remaining <= 0) lots.splice(i, 1);
    return;
  }
  for (const add of moves.added) {
    if (add.amount <= 0) continue;
    const lot = lots.find((l) => l.id === add.lot);
    if (lot) lot.remaining += add.amount;
    else lots.push({ id: add.lot, source: add.source, remaining: add.amount });
  }
};

/** The payment a grant records, if any (old events and unpaid grants have none). */
const paymentOf = (event: CreditEvent) =>
  (event.type === 'CreditsGranted' || event.type === 'MonthlyCreditsGranted') &&
  event.data.payment &&
  event.data.payment.amountMinor > 0
    ? event.data.payment
    : null;

/**
 * Refund money an event records: `PaymentRefunded`'s, or on old logs (before it existed) what a
 * reversal's or a pending refund's cumulative `refundedMinor` grew by.
 */
const refundOf = (
  event: CreditEvent,
): { paymentIntentId: string; refundedMinor: number; currency: string } | null => {
  switch (event.type) {
    case 'PaymentRefunded':
    case 'PurchaseRefundPending':
      return event.data;
    case 'PurchaseReversed':
      return event.data.refund ?? null;
    default:
      return null;
  }
};

const everySpend = () => true;

/** How a replay books events: see `bookMoney`. */
export interface BookingOptions {
  /** The spends whose values the account keeps for a refund (default: every spend). */
  remembers?: (spendId: string) => boolean;
  /** When the event happened: a payment's lot is aged from it (deferred revenue's waterfall). */
  at?: string;
}

/** The line of the books a spend's value goes to: its reading's kind, or voice. */
const spendLine = (data: Extract<CreditEvent, { type: 'CreditsSpent' }>['data']): RevenueLine => {
  if (data.purpose === 'voice_reactivation') return 'voice';
  if (data.appId === null) return 'reading:unknown';
  return `reading:${readingKindOfApp(data.appId) ?? `app-${data.appId}`}`;
};

/** The line of the books where the value of credits leaving lots goes (not an admin's deduction). */
const takenLine = (event: CreditEvent): RevenueLine => {
  switch (event.type) {
    case 'CreditsSpent':
      return spendLine(event.data);
    case 'RolloverForfeited':
      return 'breakage:rollover';
    case 'CreditsForfeited':
      return 'breakage:deletion';
    case 'DisputeClosed':
      // A lost dispute's credits taken back: the money went with the dispute (an expense).
      return 'disputes';
    default:
      // A refunded purchase taken back: its value offsets the refund's money on the same line.
      return 'refunds';
  }
};

const onLine = (line: RevenueLine, amounts: readonly MoneyAmount[]): RevenueAmount[] =>
  amounts.map(({ currency, minor }) => ({ line, currency, minor }));

/** The value of takes, summed by currency. */
const takenValue = (takes: readonly ValueTake[]) =>
  byCurrency(takes.map((t) => ({ currency: t.currency, minor: t.valueMinor })));

/**
 * Books one event into an account (in place) and says what it did to the money. `remembers`
 * chooses the spends whose values the account keeps for a refund (by default, the newest
 * `REFUNDABLE_SPENDS`, as the decider allows): a replay of a whole log that knows which spends
 * get refunded keeps only those, or the spends would be most of its memory.
 */
export const bookMoney = (
  account: AccountMoney,
  event: CreditEvent,
  { remembers = everySpend, at }: BookingOptions = {},
): MoneyEffect => {
  const moves: LotMoves = lotMovesOf(account.lots, event);
  // Values are taken at the lots' state before the event.
  const takes = moves.taken.length ? valueOfTakes(account, moves.taken) : [];
  account.balance += balanceChange(event);
  moveLots(account.lots, moves);

  const payment = paymentOf(event);
  if (payment) {
    const { currency, amountMinor, tax } = payment;
    // The lot holds what was paid net of tax; the tax is owed, never earned.
    const net = amountMinor - (tax?.amountMinor ?? 0);
    const lot = moves.added[0]?.lot;
    if (lot) changeValues(account.values, [{ lot, currency, valueMinor: net, paidAt: at ?? null }]);
    return {
      ...noEffect,
      cash: { currency, minor: amountMinor },
      deferred: byCurrency([{ currency, minor: net }]),
      taxPayable: taxOf(currency, tax, 1),
    };
  }

  if (event.type === 'SpendRefunded') {
    const spent = account.spends.get(event.data.spendId);
    account.spends.delete(event.data.spendId);
    const back: ValueTake[] = [];
    for (const add of moves.added) {
      for (const took of spent?.takes ?? []) {
        if (took.lot !== add.lot) continue;
        back.push({
          ...took,
          credits: add.amount,
          valueMinor: share(took.valueMinor, add.amount, took.credits),
        });
      }
    }
    if (!spent || !back.length) return noEffect;
    changeValues(account.values, back);
    const restored = takenValue(back);
    const unrecognized = negated(restored);
    return {
      ...noEffect,
      lotValue: unrecognized,
      recognized: unrecognized,
      revenue: onLine(spent.line, unrecognized),
      deferred: restored,
    };
  }

  if (event.type === 'CreditsSpent' && remembers(event.data.spendId)) {
    // Only the newest spends can be refunded (as the decider rules): older ones are forgotten.
    account.spends.set(event.data.spendId, { line: spendLine(event.data), takes });
    if (account.spends.size > REFUNDABLE_SPENDS)
      account.spends.delete(account.spends.keys().next().value!);
  }

  // Credits leaving lots take their value out of deferred: into recognized, or for an admin's
  // deduction (old ones too, whatever lots they took) into admin deductions.
  let taken = noEffect;
  if (takes.length) {
    changeValues(account.values, takes, -1);
    const value = takenValue(takes);
    taken =
      event.type === 'CreditsAdjusted'
        ? { ...noEffect, lotValue: value, adminDeducted: value, deferred: negated(value) }
        : {
            ...noEffect,
            lotValue: value,
            recognized: value,
            revenue: onLine(takenLine(event), value),
            deferred: negated(value),
          };
  }

  const refund = refundOf(event);
  if (!refund) return taken;
  const grown = refund.refundedMinor - (account.refundedMinor.get(refund.paymentIntentId) ?? 0);
  if (grown <= 0) return taken;
  account.refundedMinor.set(refund.paymentIntentId, refund.refundedMinor);
  // The refund's tax leaves tax payable; the rest goes back off recognized: a reversal just added
  // its credits' value there, so a refund of unspent credits nets to nothing recognized.
  const tax = event.type === 'PaymentRefunded' ? event.data.tax : undefined;
  const net = { currency: refund.currency, minor: -(grown - (tax?.amountMinor ?? 0)) };
  return {
    ...taken,
    cash: { currency: refund.currency, minor: -grown },
    recognized: byCurrency([...taken.recognized, net]),
    revenue: net.minor ? [...taken.revenue, { line: 'refunds', ...net }] : taken.revenue,
    taxPayable: taxOf(refund.currency, tax, -1),
  };
};

/**
 * What an event of Stripe's balance (`stripe-balance`) did to the money: its fees, what it paid
 * out and what disputes withdrew leave Stripe's balance (the clearing account), to the expenses
 * and to the bank (a won dispute's money comes back).
 */
export const bookBalance = (event: StripeBalanceEvent): MoneyEffect => {
  // In Stripe's balance's currency: a payout's, or a dispute's transactions'.
  const currency =
    event.type === 'PayoutRecorded'
      ? event.data.payout.currency
      : (event.data.transactions[0]?.currency ?? event.data.dispute.currency);
  return {
    ...noEffect,
    fees: byCurrency([{ currency, minor: event.data.feesMinor }]),
    paidOut:
      event.type === 'PayoutRecorded'
        ? byCurrency([{ currency, minor: event.data.paidOutMinor }])
        : [],
    disputes: byCurrency([{ currency, minor: event.data.disputesMinor ?? 0 }]),
  };
};

/**
 * The money invariant's figures in one currency, summed over the log: cash is payments less
 * refunds; what Stripe's balance holds (the clearing account) is that less fees and payouts.
 */
export interface MoneyTotals {
  cash: number;
  recognized: number;
  adminDeducted: number;
  deferred: number;
  taxPayable: number;
  fees: number;
  paidOut: number;
  disputes: number;
}

export const noMoney = (): MoneyTotals => ({
  cash: 0,
  recognized: 0,
  adminDeducted: 0,
  deferred: 0,
  taxPayable: 0,
  fees: 0,
  paidOut: 0,
  disputes: 0,
});

/** Adds an event's money effect to totals by currency (opened at 0 as currencies come). */
export const addMoney = (totals: Map<string, MoneyTotals>, effect: MoneyEffect) => {
  const add = (key: keyof MoneyTotals, amounts: readonly MoneyAmount[]) => {
    for (const { currency, minor } of amounts) {
      let sums = totals.get(currency);
      if (!sums) {
        sums = noMoney();
        totals.set(currency, sums);
      }
      sums[key] += minor;
    }
  };
  if (effect.cash) add('cash', [effect.cash]);
  add('recognized', effect.recognized);
  add('adminDeducted', effect.adminDeducted);
  add('deferred', effect.deferred);
  add('taxPayable', effect.taxPayable);
  add('fees', effect.fees);
  add('paidOut', effect.paidOut);
  add('disputes', effect.disputes);
};

/** Stripe's balance: cash less fees, what was paid out and what disputes withdrew. */
export const clearingOf = (m: MoneyTotals) => m.cash - m.fees - m.paidOut - m.disputes;

/**
 * What the clearing account must hold: recognized + admin deductions + deferred + tax payable −
 * fees − paid out − disputes.
 */
export const clearingAccountedOf = (m: MoneyTotals) =>
  m.recognized + m.adminDeducted + m.deferred + m.taxPayable - m.fees - m.paidOut - m.disputes;

/** The value of the paid credits an account holds (its deferred revenue), by currency. */
export const deferredOf = (account: AccountMoney): MoneyAmount[] =>
  byCurrency(
    [...account.values.values()].map((v) => ({ currency: v.currency, minor: v.valueMinor })),
  );

/**
 * The shape `AccountMoney` is kept in (snapshots): its maps as entry lists. A change to
 * `AccountMoney` or to the fold takes a new `ACCOUNT_MONEY_VERSION`, so old snapshots are ignored.
 */
export const ACCOUNT_MONEY_VERSION = 3;

export interface StoredAccountMoney {
  balance: number;
  lots: CreditLot[];
  values: LotValue[];
  spends: [string, SpendValue][];
  refundedMinor: [string, number][];
}

export const storedAccountMoney = (account: AccountMoney): StoredAccountMoney => ({
  balance: account.balance,
  lots: account.lots,
  values: [...account.values.values()],
  spends: [...account.spends],
  refundedMinor: [...account.refundedMinor],
});

export const accountMoneyOf = (stored: StoredAccountMoney): AccountMoney => ({
  balance: stored.balance,
  lots: stored.lots.map((lot) => ({ ...lot })),
  values: new Map(stored.values.map((v) => [valueKey(v.lot, v.currency), { ...v }])),
  spends: new Map(stored.spends),
  refundedMinor: new Map(stored.refundedMinor),
});
