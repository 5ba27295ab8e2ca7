import type { BalanceTransaction, StripeBalanceEvent } from '@astra/contracts';
import type { Decider } from '../decider.ts';

/**
 * Stripe's balance as the ledger books it (`stripe-balance`): the Stripe events recorded, the
 * balance transactions whose fee is booked, and the payouts that reached the bank.
 */
export interface StripeBalance {
  events: ReadonlySet<string>;
  transactions: ReadonlySet<string>;
  paidPayouts: ReadonlySet<string>;
}

export type StripeBalanceCommand = {
  type: 'RecordPayout';
  eventId: string;
  payout: StripeBalanceEvent['data']['payout'];
  transactions: BalanceTransaction[];
};

const added = (set: ReadonlySet<string>, ids: readonly string[]) =>
  ids.length ? new Set([...set, ...ids]) : set;

export const stripeBalanceDecider: Decider<
  StripeBalance,
  StripeBalanceCommand,
  StripeBalanceEvent
> = {
  initialState: () => ({ events: new Set(), transactions: new Set(), paidPayouts: new Set() }),
  evolve: (state, { data }) => {
    const { id, status } = data.payout;
    const paidPayouts = new Set(state.paidPayouts);
    if (status === 'paid') paidPayouts.add(id);
    else paidPayouts.delete(id);
    return {
      events: added(state.events, [data.eventId]),
      transactions: added(
        state.transactions,
        data.transactions.map((t) => t.id),
      ),
      paidPayouts,
    };
  },
  /**
   * Once per Stripe event. A fee is booked once, by the first payout event that lists its
   * transaction; the amount reaches the bank when the payout is paid, and comes back to Stripe's
   * balance when a paid payout fails (a payout that fails unpaid moved nothing).
   */
  decide: (command, state) => {
    if (state.events.has(command.eventId)) return [];
    const { payout, transactions } = command;
    const wasPaid = state.paidPayouts.has(payout.id);
    const isPaid = payout.status === 'paid';
    const paidOutMinor = isPaid === wasPaid ? 0 : isPaid ? payout.amountMinor : -payout.amountMinor;
    const feesMinor = transactions
      .filter((t) => !state.transactions.has(t.id))
      .reduce((sum, t) => sum + t.feeMinor, 0);
    return [
      {
        type: 'PayoutRecorded',
        data: { eventId: command.eventId, payout, transactions, feesMinor, paidOutMinor },
      },
    ];
  },
};
