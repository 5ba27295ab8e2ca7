import { type MonthClosed, streamDecoders } from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { financeMonthsDecider, fold, nextMonth, streams } from '@astra/ledger';
import { MONEY_STREAMS } from './creditLog.ts';

/** The months finance closed, oldest first, as the closing stream's decider folds them. */
export async function closedMonthsOf(store: EventStore): Promise<MonthClosed[]> {
  const events = [];
  for await (const recorded of store.readStream(streams.financeMonths(null)))
    events.push(streamDecoders.financeMonths(recorded));
  return fold(financeMonthsDecider, events).closed;
}

/**
 * The first month still open for an event recorded at a log position: the month after the last
 * one closed through an earlier position (null: nothing was closed then). An event recorded after
 * a close whose time falls in a closed month is booked in that month. Asked in log order: it walks
 * the closes once.
 */
export function openMonthAt(closed: readonly MonthClosed[]) {
  let applying = 0;
  return (position: bigint): string | null => {
    while (applying < closed.length && BigInt(closed[applying]!.through) < position) applying++;
    return applying === 0 ? null : nextMonth(closed[applying - 1]!.month);
  };
}

/**
 * The position of the log's last money event (a credit event, or Stripe's balance; 0: none): a
 * report made now is made through it.
 */
export async function moneyLogHead(store: EventStore): Promise<bigint> {
  for await (const recorded of store.readAll({
    direction: 'backwards',
    batch: 1,
    filter: MONEY_STREAMS,
  }))
    return recorded.position;
  return 0n;
}
