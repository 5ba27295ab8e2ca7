import type { CreditEvent, CreditLotSource, LotTake } from '@astra/contracts';

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

/** The lots a spend takes, in the spending order, passing over the lots on hold. */
export const spendLots = (
  lots: CreditLots,
  amount: number,
  onHold: ReadonlySet<string>,
): LotTake[] =>
  lotsToTake(
    lots.filter((lot) => !onHold.has(lot.id)),
    amount,
  );

export const restoreCredits = (lots: CreditLots, taken: readonly LotTake[]): CreditLots =>
  taken.reduce(addToLot, lots);

export const isSubscriptionLot = (lot: CreditLot) => lot.source === 'subscription';

export const subscriptionMonthLot = (subscriptionId: string | null, period: string) =>
  `month:${subscriptionId ?? '-'}:${period}`;

/** Credits an event adds to lots and takes from them (at most one of the two is not empty). */
export interface LotMoves {
  added: readonly LotTake[];
  taken: readonly LotTake[];
}

const noMoves: LotMoves = { added: [], taken: [] };
const adding = (take: LotTake): LotMoves => ({ added: [take], taken: [] });
const taking = (taken: LotTake[]): LotMoves => ({ added: [], taken });

/**
 * Where an event moves credits between lots: the one place that decides it, used by the decider's
 * state, the read models and the finance replay (which values what moved) alike. Debits follow the
 * spending order, but an admin's deduction takes the lots it names; a rollover forfeit takes subscription lots first and a purchase reversal that
 * purchase's lot first (old events, from before lots, may take more than those: the rest follows
 * the spending order).
 */
export const lotMovesOf = (lots: CreditLots, event: CreditEvent): LotMoves => {
  switch (event.type) {
    case 'FreeCreditsGranted':
      return adding({ lot: 'free', source: 'free', amount: event.data.amount });
    case 'CreditsGranted':
      return adding(
        event.data.kind === 'purchase'
          ? { lot: event.data.grantId, source: 'purchased', amount: event.data.amount }
          : { lot: 'promotional', source: 'promotional', amount: event.data.amount },
      );
    case 'MonthlyCreditsGranted':
      return adding({
        lot: subscriptionMonthLot(event.data.reference?.subscriptionId ?? null, event.data.period),
        source: 'subscription',
        amount: event.data.amount,
      });
    case 'CreditsAdjusted':
      if (event.data.amount > 0)
        return adding({ lot: 'promotional', source: 'promotional', amount: event.data.amount });
      // A deduction names the lots it took (zero-value credits first, `deductionLots`); an old
      // one, written before it named them, took the spending order and is replayed so.
      return taking(event.data.lots ? [...event.data.lots] : lotsToTake(lots, -event.data.amount));
    case 'SpendRefunded':
      // Old refunds do not say where the credits came from: they come back as promotional.
      return {
        added: event.data.lots ?? [
          { lot: 'promotional', source: 'promotional', amount: event.data.amount },
        ],
        taken: [],
      };
    case 'CreditsSpent':
      // A spend that passed over credits on hold names the lots it took.
      return taking(event.data.lots ? [...event.data.lots] : lotsToTake(lots, event.data.amount));
    case 'CreditsForfeited':
      return taking(lotsToTake(lots, event.data.amount));
    case 'RolloverForfeited':
      return taking(lotsToTake(lots, event.data.amount, isSubscriptionLot));
    case 'PurchaseReversed':
    case 'DisputeClosed': {
      const { grantId, amount } = event.data;
      return amount ? taking(lotsToTake(lots, amount, (lot) => lot.id === grantId)) : noMoves;
    }
    case 'CreditAccountOpened':
    case 'SubscriptionActivated':
    case 'SubscriptionCancelled':
    case 'SubscriptionEnded':
    case 'CreditAccountClosed':
    case 'PurchaseRefundPending':
    case 'PaymentRefunded':
    case 'SubscriptionCheckoutStarted':
    case 'SubscriptionCheckoutClosed':
    case 'SubscriptionPlanChanged':
    case 'DisputeOpened':
      return noMoves;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/** The lots after an event's moves. */
export const applyLotMoves = (lots: CreditLots, moves: LotMoves): CreditLots =>
  moves.taken.length ? withoutTaken(lots, moves.taken) : restoreCredits(lots, moves.added);

/** The lots after an event. */
export const lotsAfter = (lots: CreditLots, event: CreditEvent): CreditLots =>
  applyLotMoves(lots, lotMovesOf(lots, event));
