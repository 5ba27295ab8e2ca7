import { EventDecodeError } from '@astra/contracts';
import type { RecordedEvent } from '@astra/event-store';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { joinStatements } from './bulkInsert.ts';
import { checkpointOf, lockProjectionsSql } from './checkpoints.ts';
import { type ReadDb, readModels } from './database.ts';
import { CHECKPOINTS_CHANNEL, checkpointsAnnouncement } from './progress.ts';
import { type LogEvent, logEventOf, type Projection, touches } from './projections/projection.ts';
import { messageOf } from './projectorStatus.ts';

/** A projection that threw on a batch: rolled back alone, and left at its checkpoint `position`. */
export interface BatchFailure {
  projection: Projection;
  position: bigint;
  error: unknown;
}

/**
 * Adds `event` to `batch` decoded (an event of a stream that is not the app's as it is: no
 * projection reads it). One that does not decode is returned instead: the batch stops before
 * it, the events before it are applied, and the projector stops.
 */
export const decodeInto = (batch: LogEvent[], event: RecordedEvent): EventDecodeError | null => {
  try {
    batch.push(logEventOf(event));
    return null;
  } catch (error) {
    if (error instanceof EventDecodeError) return error;
    throw error;
  }
};

/** The checkpoints a batch moves (in the transaction's `search_path`). */
const checkpointsWrite = (reached: readonly { name: string; position: string }[]) =>
  CompiledQuery.raw(
    `INSERT INTO checkpoints (name, position)
SELECT * FROM unnest($1::text[], $2::bigint[])
ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`,
    [reached.map((r) => r.name), reached.map((r) => r.position)],
  );

/** Marks a projection failed where every process reads it (`failed_at`: its first failure). */
const recordFailure = (read: ReadDb, name: string, position: string, error: string) => {
  const at = new Date();
  return read
    .insertInto('projection_failures')
    .values({ name, position, error, failed_at: at, updated_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ position, error, updated_at: at }))
    .execute();
};

/** A check in each batch's transaction, after its locks; throwing rolls the batch back. */
export type BatchFence = (trx: Kysely<unknown>) => Promise<void>;

/**
 * The projector's writes: each batch in one transaction (its projections' rows and checkpoints
 * together), and the projections' rows in `projection_failures`.
 */
export class ProjectionBatches {
  /** Projections with a row in `projection_failures` (to delete once they apply again). */
  private readonly recorded = new Set<string>();

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
    private readonly fence?: BatchFence,
  ) {}

  /**
   * Applies `batch` (the events after `from`) to `projections` in one transaction. Isolated, the
   * projections that throw are rolled back alone, recorded and returned: the batch runs with
   * every projection together first (savepoints cost two round trips a projection, and a live
   * batch is a few rows), and when one throws, it is rolled back whole and runs again with each
   * projection's part under a savepoint. Otherwise the first that throws fails the whole batch.
   */
  async apply(
    batch: readonly LogEvent[],
    from: bigint,
    projections: readonly Projection[],
    isolated: boolean,
  ): Promise<BatchFailure[]> {
    if (!isolated) return this.applyInTransaction(batch, from, projections, false, false);
    try {
      return await this.applyInTransaction(batch, from, projections, true, false);
    } catch {
      return this.applyInTransaction(batch, from, projections, true, true);
    }
  }

  /** Records each named projection failed at its checkpoint with `error` (the projector stopped). */
  async recordStopped(names: readonly string[], error: string) {
    const read = readModels(this.db, this.schema);
    for (const name of names) {
      const position = (await checkpointOf(this.db, this.schema, [name])).toString();
      await recordFailure(read, name, position, error);
      this.recorded.add(name);
    }
  }

  /** Learns which of `names` an earlier run left in `projection_failures`. */
  async loadRecorded(names: readonly string[]) {
    const recorded = await readModels(this.db, this.schema)
      .selectFrom('projection_failures')
      .select('name')
      .where('name', 'in', [...names])
      .execute();
    for (const { name } of recorded) this.recorded.add(name);
  }

  private async applyInTransaction(
    batch: readonly LogEvent[],
    from: bigint,
    projections: readonly Projection[],
    isolated: boolean,
    savepoints: boolean,
  ): Promise<BatchFailure[]> {
    const failures: BatchFailure[] = [];
    const cleared: string[] = [];
    await this.db.transaction().execute(async (trx) => {
      failures.length = 0;
      cleared.length = 0;
      const names = projections.map((p) => p.name);
      // Unqualified table names in a projection's SQL mean this projector's schema. The commit
      // need not wait for the disk: rows and checkpoint are lost together in a crash and the
      // events are applied again from the durable log. The commit tells API processes waiting
      // (`PolledProgress`) that these projections passed the batch: each one applied it, or
      // failed on it and is recorded as failed in this transaction, which no wait waits for.
      // One statement with the locks (a batch is short: every round trip shows in how soon a
      // write is readable).
      const announcement = checkpointsAnnouncement({
        schema: this.schema,
        position: batch.at(-1)!.position,
        names,
      });
      await sql`SELECT set_config('search_path', ${this.schema}, true),
        set_config('synchronous_commit', 'off', true),
        pg_notify(${CHECKPOINTS_CHANNEL}, ${announcement}),
        (SELECT count(*) FROM (${lockProjectionsSql(names)}) AS locked)`.execute(trx);
      await this.fence?.(trx);
      const read = readModels(trx, this.schema);
      const stored = new Map(
        (await read.selectFrom('checkpoints').selectAll().where('name', 'in', names).execute()).map(
          (row) => [row.name, BigInt(row.position)],
        ),
      );
      /** The checkpoints the batch moves, written together at its end. */
      const reached: { name: string; position: string }[] = [];
      /** Without savepoints, the projections' writes: run with the checkpoints, as one statement. */
      const writes: CompiledQuery[] = [];
      for (const projection of projections) {
        const checkpoint = stored.get(projection.name) ?? 0n;
        if (isolated && checkpoint < from) {
          // Its checkpoint went back (an operator, a restore): applying would leave a gap.
          failures.push({
            projection,
            position: checkpoint,
            error: new Error(`its checkpoint ${checkpoint} is behind the batch (from ${from})`),
          });
          continue;
        }
        const fresh = batch.filter((event) => event.position > checkpoint);
        if (fresh.length === 0) continue;
        const position = fresh.at(-1)!.position.toString();
        // Nothing of its kinds: its checkpoint moves, nothing else runs (no savepoint either).
        if (projection.categories && !touches(fresh, projection.categories)) {
          reached.push({ name: projection.name, position });
          continue;
        }
        if (savepoints) await sql`SAVEPOINT projection`.execute(trx);
        try {
          if (!savepoints && projection.writes)
            writes.push(...(await projection.writes(read, fresh)));
          else await projection.apply(read, fresh);
          if (isolated && this.recorded.has(projection.name)) {
            await read
              .deleteFrom('projection_failures')
              .where('name', '=', projection.name)
              .execute();
            cleared.push(projection.name);
          }
          if (savepoints) await sql`RELEASE SAVEPOINT projection`.execute(trx);
          reached.push({ name: projection.name, position });
        } catch (error) {
          if (!savepoints) throw error;
          await sql`ROLLBACK TO SAVEPOINT projection`.execute(trx);
          failures.push({ projection, position: checkpoint, error });
        }
      }
      if (reached.length > 0) writes.push(checkpointsWrite(reached));
      if (writes.length > 0) await trx.executeQuery(joinStatements(writes));
      for (const failure of failures) {
        const { name } = failure.projection;
        await recordFailure(read, name, failure.position.toString(), messageOf(failure.error));
      }
    });
    for (const name of cleared) this.recorded.delete(name);
    for (const failure of failures) this.recorded.add(failure.projection.name);
    return failures;
  }
}
