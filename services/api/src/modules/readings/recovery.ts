import { isDomainError } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import { type Ledger, systemContext } from '../../ledger/ledger.ts';
import type { Logger } from '../../observability/logger.ts';
import { settleRefund } from './compensation.ts';
import { abandonReading, readingCompensation } from './generation.ts';

/** A reading still pending this long was cut off (a crash, a lost process): longer than any writer waits. */
export const INTERRUPTED_AFTER_MS = 10 * 60_000;

/**
 * Finishes readings a crash cut off, through the same gate as the request: a pending reading
 * (cut off between spend and result) is failed, then refunded; a failed one whose refund was cut
 * off (between the two) gets it. The read model only finds candidates; each reading's own stream
 * decides. Safe to run anywhere and often: failures, refunds and settlings happen once per reading.
 */
export async function recoverInterruptedReadings(
  ledger: Ledger,
  read: ReadDb,
  log: Logger,
  olderThanMs = INTERRUPTED_AFTER_MS,
) {
  const candidates = await read
    .selectFrom('usage_logs')
    .select('log_id')
    // A failed row keeps its charge until its refund is settled.
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'failed'), eb('credits_charged', '>', 0)]),
      ]),
    )
    .where('created_at', '<', new Date(Date.now() - olderThanMs))
    .limit(500)
    .execute();
  let recovered = 0;
  for (const { log_id: readingId } of candidates) {
    try {
      const { state } = await ledger.load('reading', readingId);
      if (!state.userId || !state.spendId) continue;
      const reading = { readingId, userId: state.userId, spendId: state.spendId };
      if (state.status === 'pending') {
        await abandonReading(ledger, reading, 'interrupted', systemContext());
      } else if (state.refundOwed) {
        // The refund is given with the reason the failure was recorded with.
        const reason = state.failureReason === 'interrupted' ? 'interrupted' : 'generation_failed';
        await settleRefund(readingCompensation(ledger, reading, reason, systemContext()), state);
      } else continue;
      recovered++;
    } catch (error) {
      // Completed meanwhile (its request was only slow): delivered, so nothing to recover.
      if (isDomainError(error) && error.code === 'reading_completed') continue;
      // One reading that cannot be finished must not hold up the others.
      log.error({ err: error, readingId }, 'Recovering a reading failed');
    }
  }
  return recovered;
}
