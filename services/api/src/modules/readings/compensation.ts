import { isDomainError } from '@astra/ledger';
import { type CommandContext, type Ledger, latestPosition } from '../../ledger/ledger.ts';

/**
 * The compensation of a paid saga (charge, then start the work), in the one order that cannot
 * refund delivered work: record the failure on the saga's own stream first, then give the charge
 * back only if that stream's state, as its command handler returns it (never a read model), says
 * a refund is owed, then record that the refund is settled. The stream's decider refuses to fail
 * what was delivered, so a late failure stops at the first step and nothing is given back.
 * A crash between the steps leaves the refund owed on the stream, for a recovery to `settleRefund`.
 */
export interface Compensation<State> {
  /** Records the failure (a no-op if recorded already; throws if the decider refuses it). */
  fail(): Promise<Step<State>>;
  /** Whether the stream's state still owes the charge back. */
  refundOwed(state: State): boolean;
  /** Gives the charge back, once (idempotent); false when there was nothing to give back. */
  refund(): Promise<{ refunded: boolean; position: bigint | null }>;
  /** Records the refund's outcome on the saga's stream (a no-op once settled). */
  settle(refunded: boolean): Promise<Step<State>>;
}

interface Step<State> {
  state: State;
  position: bigint | null;
}

/** The gate's outcome: the saga stream's state, and the latest position written (for readers). */
export type Compensated<State> = Step<State>;

/** Fails the saga, then settles its refund if (and only if) the failure owes one. */
export async function compensate<State>(saga: Compensation<State>): Promise<Compensated<State>> {
  const failed = await saga.fail();
  const settled = await settleRefund(saga, failed.state);
  return { state: settled.state, position: latestPosition(failed.position, settled.position) };
}

/** The refund half of the gate, also run by recoveries on a failure whose refund a crash cut off. */
export async function settleRefund<State>(
  saga: Omit<Compensation<State>, 'fail'>,
  state: State,
): Promise<Compensated<State>> {
  if (!saga.refundOwed(state)) return { state, position: null };
  const refund = await saga.refund();
  const settled = await saga.settle(refund.refunded);
  return { state: settled.state, position: latestPosition(refund.position, settled.position) };
}

/**
 * Gives a spend back on the credit stream: `RefundSpend` is a no-op for a spend refunded already,
 * so `refunded` is true after this or any earlier refund. A refusal (no such spend: it never
 * happened; or the account was closed, its credits forfeited) means nothing can be given back.
 */
export async function refundSpend(
  ledger: Ledger,
  spend: { userId: string; spendId: string },
  reason: string,
  context: CommandContext,
): Promise<{ refunded: boolean; position: bigint | null }> {
  try {
    const refund = await ledger.handle(
      'credits',
      spend.userId,
      { type: 'RefundSpend', spendId: spend.spendId, reason },
      context,
    );
    const refunded =
      refund.newEvents.length > 0 ||
      refund.state.recentSpends.some((s) => s.spendId === spend.spendId && s.refunded);
    return { refunded, position: refund.position };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { refunded: false, position: null };
  }
}
