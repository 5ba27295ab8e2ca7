import type { EventStore } from '@astra/event-store';
import { type Kysely, sql } from 'kysely';
import type { Write } from './bulkInsert.ts';
import { readModels } from './database.ts';
import {
  type LogEvent,
  logEventOf,
  type Projection,
  type Replay,
  type ReplayOptions,
} from './projections/projection.ts';

export interface ReplayReport {
  /** Events replayed. */
  events: number;
  /** The last one's position (0: the log was empty): every projection's checkpoint. */
  position: bigint;
}

/** A projection without a replay of its own: `apply` batch by batch, in the replay's order. */
const batchByBatch = (projection: Projection): Replay => {
  let pending: LogEvent[][] = [];
  return {
    fold(events) {
      pending.push([...events]);
    },
    flush() {
      const batches = pending;
      pending = [];
      return batches.map((events) => (db) => projection.apply(db, events));
    },
  };
};

/**
 * Replays the whole log into the empty read models of `schema` (a rebuild's fresh schema, which
 * nothing else reads or writes), each projection through its `replay`: state in memory, rows in
 * bulk. A pipeline of two: while one batch's rows are written, the next batch is read and folded.
 * The secondary indexes of the projections' tables are dropped first and built again once the
 * rows are in (cheaper than keeping them up to date row by row).
 * Every projection's checkpoint ends at the last event replayed; `onProgress` is told the events
 * folded so far after each batch.
 */
export async function replayInto(
  store: EventStore,
  db: Kysely<unknown>,
  projections: readonly Projection[],
  {
    schema,
    batchSize,
    onProgress,
    ...options
  }: ReplayOptions & { schema: string; batchSize: number; onProgress?: (events: number) => void },
): Promise<ReplayReport> {
  const replays = projections.map(
    (projection) => projection.replay?.(options) ?? batchByBatch(projection),
  );
  const tables = projections.flatMap((projection) => projection.tables);
  const indexes = await dropSecondaryIndexes(db, schema, tables);

  // The writes run one batch at a time, in order, each batch in one transaction.
  let writing: Promise<void> = Promise.resolve();
  const settled = () => writing;
  const send = (writes: Write[]) => {
    if (writes.length === 0) return;
    writing = writing.then(() =>
      db.transaction().execute(async (trx) => {
        // The schema nobody reads yet: the rows need not wait for the disk (a crash drops it).
        await sql`SELECT set_config('search_path', ${schema}, true),
          set_config('synchronous_commit', 'off', true)`.execute(trx);
        const read = readModels(trx, schema);
        for (const write of writes) await write(read);
      }),
    );
    writing.catch(() => {}); // seen by the next `await writing`
  };

  let events = 0;
  let position = 0n;
  let batch: LogEvent[] = [];
  const fold = async () => {
    const read = readModels(db, schema);
    for (const replay of replays) await replay.fold(batch, read, settled);
    const writes = replays.flatMap((replay) => replay.flush(false));
    // Batch N + 1 is folded; wait for batch N's writes before handing these out.
    await writing;
    send(writes);
    events += batch.length;
    position = batch.at(-1)!.position;
    batch = [];
    onProgress?.(events);
  };
  try {
    for await (const event of store.readAll({ from: 0n, batch: batchSize })) {
      // Decoded as the projector decodes (an event that does not decode stops the rebuild).
      batch.push(logEventOf(event));
      if (batch.length === batchSize) await fold();
    }
    if (batch.length > 0) await fold();
    const final = replays.flatMap((replay) => replay.flush(true));
    if (events > 0) {
      const at = position.toString();
      final.push(async (read) => {
        await read
          .insertInto('checkpoints')
          .values(projections.map(({ name }) => ({ name, position: at })))
          .onConflict((oc) => oc.column('name').doUpdateSet({ position: at }))
          .execute();
      });
    }
    send(final);
    await writing;
  } catch (error) {
    await writing.catch(() => {});
    throw error;
  }
  // Built side by side (PostgreSQL builds each on a connection of its own).
  await Promise.all(indexes.map((create) => sql.raw(create).execute(db)));
  return { events, position };
}

/**
 * Drops the indexes and unique constraints of `tables` in `schema` other than the primary keys;
 * returns the statements that make them again, as the migrations made them.
 */
async function dropSecondaryIndexes(db: Kysely<unknown>, schema: string, tables: string[]) {
  const { rows } = await sql<{ drop: string; create: string }>`
    SELECT
      CASE WHEN con.oid IS NULL
        THEN format('DROP INDEX %I.%I', n.nspname, ic.relname)
        ELSE format('ALTER TABLE %I.%I DROP CONSTRAINT %I', n.nspname, t.relname, con.conname)
      END AS drop,
      CASE WHEN con.oid IS NULL
        THEN pg_get_indexdef(i.indexrelid)
        ELSE format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', n.nspname, t.relname, con.conname,
          pg_get_constraintdef(con.oid))
      END AS create
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.contype IN ('u', 'x')
    WHERE n.nspname = ${schema} AND t.relname = ANY(${tables}::text[]) AND NOT i.indisprimary
    ORDER BY ic.relname`.execute(db);
  for (const { drop } of rows) await sql.raw(drop).execute(db);
  return rows.map((row) => row.create);
}
