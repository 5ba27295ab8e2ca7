import {
  type BalanceTransaction,
  isDisputeTransaction,
  type StripeBalanceEvent,
} from '@astra/contracts';
import type { Decider } from '../decider.ts';

/**
 * Stripe's balance as the ledger books it (`stripe-balance`): the Stripe events recorded, the
 * balance transactions booked (each once: its fee, and a dispute's money), and the payouts that
 * reached the bank.
 */
export interface StripeBalance {
  events: ReadonlySet<string>;
  transactions: ReadonlySet<string>;
  paidPayouts: ReadonlySet<string>;
}

type Dispute = Extract<StripeBalanceEvent, { type: 'DisputeRecorded' }>['data']['dispute'];

export type StripeBalanceCommand =
  | {
      type: 'RecordPayout';
      eventId: string;
      payout: Extract<StripeBalanceEvent, { type: 'PayoutRecorded' }>['data']['payout'];
      transactions: BalanceTransaction[];
    }
  /** A dispute opened or closed, with the balance transactions of its money (withdrawn, returned). */
  | {
      type: 'RecordDispute';
      eventId: string;
      dispute: Dispute;
      transactions: BalanceTransaction[];
    };

const added = (set: ReadonlySet<string>, ids: readonly string[]) =>
  ids.length ? new Set([...set, ...ids]) : set;

/**
 * What transactions no earlier event booked come to: their fees, and the money of those that are a
 * dispute's (withdrawn +, returned −; all of a dispute's own, `isDispute`).
 */
const booking = (
  state: StripeBalance,
  transactions: readonly BalanceTransaction[],
  isDispute: (t: BalanceTransaction) => boolean,
) => {
  let feesMinor = 0;
  let disputesMinor = 0;
  for (const t of transactions) {
    if (state.transactions.has(t.id)) continue;
    feesMinor += t.feeMinor;
    if (isDispute(t)) disputesMinor -= t.amountMinor;
  }
  return { feesMinor, disputesMinor };
};

export const stripeBalanceDecider: Decider<
  StripeBalance,
  StripeBalanceCommand,
  StripeBalanceEvent
> = {
  initialState: () => ({ events: new Set(), transactions: new Set(), paidPayouts: new Set() }),
  evolve: (state, event) => {
    const { data } = event;
    let paidPayouts = state.paidPayouts;
    if (event.type === 'PayoutRecorded') {
      const { id, status } = event.data.payout;
      const paid = new Set(paidPayouts);
      if (status === 'paid') paid.add(id);
      else paid.delete(id);
      paidPayouts = paid;
    }
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
   * Once per Stripe event. Each balance transaction is booked once, by the first event that lists
   * it: its fee, and a dispute's money (a dispute's own events, or a payout that lists a dispute
   * transaction no dispute event brought). A payout's amount reaches the bank when it is paid, and
   * comes back to Stripe's balance when a paid payout fails (one that fails unpaid moved nothing).
   */
  decide: (command, state) => {
    if (state.events.has(command.eventId)) return [];
    if (command.type === 'RecordDispute') {
      const { eventId, dispute, transactions } = command;
      return [
        {
          type: 'DisputeRecorded',
          data: { eventId, dispute, transactions, ...booking(state, transactions, () => true) },
        },
      ];
    }
    const { payout, transactions } = command;
    const wasPaid = state.paidPayouts.has(payout.id);
    const isPaid = payout.status === 'paid';
    const paidOutMinor = isPaid === wasPaid ? 0 : isPaid ? payout.amountMinor : -payout.amountMinor;
    const { feesMinor, disputesMinor } = booking(state, transactions, isDisputeTransaction);
    return [
      {
        type: 'PayoutRecorded',
        data: {
          eventId: command.eventId,
          payout,
          transactions,
          feesMinor,
          paidOutMinor,
          ...(disputesMinor ? { disputesMinor } : {}),
        },
      },
    ];
  },
};
