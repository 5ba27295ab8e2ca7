import {
  type BalanceTransaction,
  isDisputeTransaction,
  type PayoutReconciliation,
  type PayoutReport,
  streamDecoders,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { streams } from '@astra/ledger';
import { financeCalendar } from './calendar.ts';

/** Which part of a payout a balance transaction is, by Stripe's type (disputes as the ledger books them). */
const partOf = (
  t: BalanceTransaction,
): 'charges' | 'refunds' | 'fees' | 'disputes' | 'other' | null => {
  if (isDisputeTransaction(t)) return 'disputes';
  switch (t.type) {
    case 'charge':
    case 'payment':
      return 'charges';
    case 'refund':
    case 'payment_refund':
      return 'refunds';
    case 'stripe_fee':
      return 'fees';
    // The payout's own transaction is the amount it is checked against.
    case 'payout':
      return null;
    default:
      return 'other';
  }
};

/** A payout's transactions added up by kind, and against its amount. */
export const reconcilePayout = (
  payout: Pick<PayoutReconciliation, 'payoutId' | 'status' | 'currency' | 'arrivalDate' | 'amount'>,
  transactions: readonly BalanceTransaction[],
): PayoutReconciliation => {
  const sums = { charges: 0, refunds: 0, fees: 0, disputes: 0, other: 0 };
  for (const t of transactions) {
    const part = partOf(t);
    if (part === null) continue;
    sums.fees += t.feeMinor;
    if (part === 'refunds' || part === 'fees') sums[part] -= t.amountMinor;
    else sums[part] += t.amountMinor;
  }
  const expected = sums.charges - sums.refunds - sums.fees + sums.disputes + sums.other;
  return {
    ...payout,
    ...sums,
    expected,
    difference: payout.amount - expected,
    transactions: transactions.length,
  };
};

/**
 * The payouts that reach the bank in a month of the finance calendar (by Stripe's arrival date),
 * each as its latest `PayoutRecorded` on `stripe-balance` has it, tied to the bank: charges −
 * refunds − fees ± disputes = the amount paid out; a difference is flagged.
 */
export async function payoutReport(
  store: EventStore,
  month: string,
  timeZone = 'UTC',
): Promise<PayoutReport> {
  const calendar = financeCalendar(timeZone);
  const { from, to } = calendar.monthRange(month);
  const latest = new Map<string, PayoutReconciliation>();
  for await (const recorded of store.readStream(streams.stripeBalance(null))) {
    const event = streamDecoders.stripeBalance(recorded);
    if (event.type !== 'PayoutRecorded') continue;
    const { data } = event;
    const { id, status, currency, arrivalDate, amountMinor } = data.payout;
    if (calendar.monthOf(arrivalDate) !== month) continue;
    latest.set(
      id,
      reconcilePayout(
        { payoutId: id, status, currency, arrivalDate, amount: amountMinor },
        data.transactions,
      ),
    );
  }
  const payouts = [...latest.values()].sort(
    (a, b) => a.arrivalDate.localeCompare(b.arrivalDate) || a.payoutId.localeCompare(b.payoutId),
  );
  const flags = payouts
    .filter((p) => p.difference !== 0)
    .map(
      (p) =>
        `${p.payoutId} (${p.currency}): its transactions add up to ${p.expected}, it paid out ${p.amount} (difference ${p.difference})`,
    );
  return { month, timeZone, from, to, payouts, flags };
}
