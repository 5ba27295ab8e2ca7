import type { ReactorMessage, ReactorStatus } from '@astra/contracts';
import { sql } from 'kysely';
import type { AppDb } from '../storage/appDatabase.ts';
import type { OutboxRow } from './outbox.ts';

/** Messages of a reactor that failed and are not sent yet, as the Projections page lists them. */
const PROBLEMS_LISTED = 50;

export const reactorMessageOf = (row: OutboxRow): ReactorMessage => ({
  id: row.id,
  kind: row.kind,
  recipient: row.recipient,
  status: row.status,
  attempts: row.attempts,
  lastError: row.last_error,
  nextAttemptAt: row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null,
  createdAt: new Date(row.created_at).toISOString(),
});

/**
 * Each reactor against the log's head (its checkpoint and lag, measured as a projection's), with
 * its messages waiting, failing (failed, not sent yet: waiting for another attempt or in it) and
 * parked. A failing message stays counted while it is tried again, as it stays in `problems`.
 */
export async function reactorStatuses(
  appDb: AppDb,
  names: readonly string[],
  lagOf: (position: bigint) => Promise<{ events: number; seconds: number }>,
): Promise<ReactorStatus[]> {
  return Promise.all(
    names.map(async (name) => {
      const [checkpoint, counts, problems] = await Promise.all([
        appDb
          .selectFrom('reactor_checkpoints')
          .select('position')
          .where('name', '=', name)
          .executeTakeFirst(),
        appDb
          .selectFrom('outbox')
          .select([
            sql<number>`count(*) FILTER (WHERE status IN ('pending', 'sending'))::int`.as(
              'pending',
            ),
            sql<number>`count(*) FILTER (WHERE status IN ('pending', 'sending') AND last_error IS NOT NULL)::int`.as(
              'failing',
            ),
            sql<number>`count(*) FILTER (WHERE status = 'parked')::int`.as('parked'),
          ])
          .where('reactor', '=', name)
          .where('status', 'in', ['pending', 'sending', 'parked'])
          .executeTakeFirstOrThrow(),
        appDb
          .selectFrom('outbox')
          .selectAll()
          .where('reactor', '=', name)
          .where('status', 'in', ['pending', 'sending', 'parked'])
          .where('last_error', 'is not', null)
          .orderBy('created_at', 'desc')
          .limit(PROBLEMS_LISTED)
          .execute() as Promise<OutboxRow[]>,
      ]);
      const position = BigInt(checkpoint?.position ?? 0);
      const lag = await lagOf(position);
      return {
        name,
        position: String(position),
        lagEvents: lag.events,
        lagSeconds: lag.seconds,
        pending: counts.pending,
        failing: counts.failing,
        parked: counts.parked,
        problems: problems.map(reactorMessageOf),
      };
    }),
  );
}
