import type { ReadDb } from '@astra/projections';
import { type Ledger, systemContext } from '../../ledger/ledger.ts';
import { abandonReading } from './generation.ts';

/** A reading still pending this long was cut off (a crash, a lost process): longer than any writer waits. */
export const INTERRUPTED_AFTER_MS = 10 * 60_000;

/**
 * Finishes readings a crash left between spend and result: their credits go back and they are
 * marked failed. Safe to run anywhere and often: refunds and failures happen once per reading.
 */
export async function recoverInterruptedReadings(
  ledger: Ledger,
  read: ReadDb,
  olderThanMs = INTERRUPTED_AFTER_MS,
) {
  const pending = await read
    .selectFrom('usage_logs')
    .select('log_id')
    .where('status', '=', 'pending')
    .where('created_at', '<', new Date(Date.now() - olderThanMs))
    .limit(500)
    .execute();
  let recovered = 0;
  for (const { log_id: readingId } of pending) {
    try {
      const { state } = await ledger.readingOf(readingId);
      if (state.status !== 'pending' || !state.userId || !state.spendId) continue;
      await abandonReading(
        ledger,
        { readingId, userId: state.userId, spendId: state.spendId },
        'interrupted',
        systemContext(),
      );
      recovered++;
    } catch (error) {
      // One reading that cannot be finished must not hold up the others.
      console.error(`Recovering reading ${readingId} failed:`, error);
    }
  }
  return recovered;
}
