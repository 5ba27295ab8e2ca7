import type { CreditLotSource, LotTake } from '@astra/contracts';

export type { CreditLotSource, LotTake } from '@astra/contracts';

/**
 * A balance is kept in lots by where its credits came from. Only subscription lots are capped
 * at a renewal; free, promotional and purchased credits never expire. Spends take lots in one
 * order: subscription first (they may be lost at the next renewal), then free, then
 * promotional, then purchased; within a source, oldest first.
 */
export interface CreditLot {
  /** `free`, `promotional`, a purchase's grant id, or a subscription month (`month:{sub}:{YYYY-MM}`). */
  id: string;
  source: CreditLotSource;
  remaining: number;
}

export type CreditLots = readonly CreditLot[];

export const SPENDING_ORDER: readonly CreditLotSource[] = [
  'subscription',
  'free',
  'promotional',
  'purchased',
];

export type LotTotals = Record<CreditLotSource, number>;

export const lotTotals = (lots: CreditLots): LotTotals => {
  const totals: LotTotals = { subscription: 0, free: 0, promotional: 0, purchased: 0 };
  for (const lot of lots) totals[lot.source] += lot.remaining;
  return totals;
};

export const lotsBalance = (lots: CreditLots) => lots.reduce((sum, lot) => sum + lot.remaining, 0);

/** Adds credits to a lot, opening it (as the newest of its source) when it is not there. */
export const addToLot = (lots: CreditLots, take: LotTake): CreditLots => {
  if (take.amount <= 0) return lots;
  const existing = lots.find((lot) => lot.id === take.lot);
  if (!existing) return [...lots, { id: take.lot, source: take.source, remaining: take.amount }];
  return lots.map((lot) =>
    lot.id === take.lot ? { ...lot, remaining: lot.remaining + take.amount } : lot,
  );
};

/** Removes what was taken; emptied lots are dropped. */
export const withoutTaken = (lots: CreditLots, taken: readonly LotTake[]): CreditLots =>
  lots
    .map((lot) => {
      const amount = taken.reduce((sum, t) => (t.lot === lot.id ? sum + t.amount : sum), 0);
      return amount ? { ...lot, remaining: lot.remaining - amount } : lot;
    })
    .filter((lot) => lot.remaining > 0);

/**
 * Which lots `amount` credits come from, taking `first` lots before the spending order. Lots are
 * walked in spending order (by source, oldest first within one) without sorting a copy: a replay
 * asks this for every spend of the log.
 */
export const lotsToTake = (
  lots: CreditLots,
  amount: number,
  first: (lot: CreditLot) => boolean = () => false,
): LotTake[] => {
  const taken: LotTake[] = [];
  let left = amount;
  for (const firstPass of [true, false]) {
    for (const source of SPENDING_ORDER) {
      for (const lot of lots) {
        if (left === 0) return taken;
        if (lot.source !== source || first(lot) !== firstPass) continue;
        const part = Math.min(lot.remaining, left);
        if (part > 0) taken.push({ lot: lot.id, source: lot.source, amount: part });
        left -= part;
      }
    }
  }
  return taken;
};

/** Free and promotional credits (admins' own grants among them) are worth nothing, whatever was paid. */
export const isZeroValueLot = (lot: CreditLot) =>
  lot.source === 'free' || lot.source === 'promotional';

/**
 * The lots an admin's deduction takes: zero-value credits first (free, then promotional; oldest
 * first), then the spending order (subscription months, then purchased packs). A deduction is no
 * sale: it takes paid credits only when no free one is left. Deductions written before this
 * order (without `lots`) took the spending order, and are replayed so.
 */
export const deductionLots = (lots: CreditLots, amount: number): LotTake[] =>
  lotsToTake(lots, amount, isZeroValueLot);

export const restoreCredits = (lots: CreditLots, taken: readonly LotTake[]): CreditLots =>
  taken.reduce(addToLot, lots);

export const isSubscriptionLot = (lot: CreditLot) => lot.source === 'subscription';

export const subscriptionMonthLot = (subscriptionId: string | null, period: string) =>
  `month:${subscriptionId ?? '-'}:${period}`;
