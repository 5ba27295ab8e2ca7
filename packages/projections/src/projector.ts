import { EventDecodeError } from '@astra/contracts';
import type { EventStore, RecordedEvent } from '@astra/event-store';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { joinStatements } from './bulkInsert.ts';
import { checkpointOf, lockProjectionsSql } from './checkpoints.ts';
import { READ_SCHEMA, readModels } from './database.ts';
import {
  CHECKPOINTS_CHANNEL,
  checkpointsAnnouncement,
  PositionWaiters,
  type ProjectionProgress,
} from './progress.ts';
import { type LogEvent, logEventOf, type Projection, touches } from './projections/projection.ts';

/** Where the projector writes its lines: any logger with `info`/`error(fields, message)` (pino). */
export interface ProjectorLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Plain lines on the console, when no logger is given. */
const consoleLogger: ProjectorLogger = {
  info: (_fields, message) => console.log(message),
  error: (_fields, message) => console.error(message),
};

export interface ProjectorOptions {
  schema?: string;
  batchSize?: number;
  /** Told about failures of whole batches (the log, the database), which it retries. */
  onError?: (error: unknown) => void;
  /**
   * Told when a projection fails (once per change of its position or error) and when it resumes.
   * Logs by default (to `logger`).
   */
  onStatus?: (status: ProjectionStatus) => void;
  /** The lines of the default `onStatus`; the console when not given. */
  logger?: ProjectorLogger;
  /** The first wait before a failed projection tries again; it doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/** Where one projection stands. */
export interface ProjectionStatus {
  name: string;
  /** `failed`: it cannot apply the event after `position`; the others go on without it. */
  state: 'live' | 'failed';
  /** Live: the position the projector has passed. Failed: its checkpoint. */
  position: bigint;
  error: string | null;
  /** When it first failed (at this position or before). */
  since: Date | null;
}

interface Failure {
  position: bigint;
  error: string;
  since: Date;
  /** Its own catch-up (with backoff) while it is out of the batches. */
  recovery: Promise<void> | undefined;
  /** Its catch-up reached the head: the main batches take it back. */
  caughtUp: boolean;
}

interface BatchFailure {
  projection: Projection;
  position: bigint;
  error: unknown;
}

const NOTHING_YET = Symbol('nothing yet');

/** The checkpoints a batch moves (in the transaction's `search_path`). */
const checkpointsWrite = (reached: readonly { name: string; position: string }[]) =>
  CompiledQuery.raw(
    `INSERT INTO checkpoints (name, position)
SELECT * FROM unnest($1::text[], $2::bigint[])
ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`,
    [reached.map((r) => r.name), reached.map((r) => r.position)],
  );

/**
 * Adds `event` to `batch` decoded (an event of a stream that is not the app's as it is: no
 * projection reads it). One that does not decode is returned instead: the batch stops before
 * it, the events before it are applied, and the projector stops.
 */
const decodeInto = (batch: LogEvent[], event: RecordedEvent): EventDecodeError | null => {
  try {
    batch.push(logEventOf(event));
    return null;
  } catch (error) {
    if (error instanceof EventDecodeError) return error;
    throw error;
  }
};

const messageOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2000);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

const logStatus = (status: ProjectionStatus, logger: ProjectorLogger) => {
  const fields = { projection: status.name, position: status.position.toString() };
  if (status.state === 'failed') {
    logger.error(
      { ...fields, error: status.error },
      `Projection ${status.name} cannot apply the event after position ${status.position}; the other projections go on, it retries: ${status.error}`,
    );
  } else {
    logger.info(
      fields,
      `Projection ${status.name} resumed; it is live again at position ${status.position}.`,
    );
  }
};

/**
 * Follows the global order from the projections' checkpoint and applies events in batches: each
 * batch, every projection's rows and its checkpoint commit in one transaction. Checkpoints are
 * read again under the projections' locks, so a second projector or a replay applies nothing twice.
 *
 * A projection that throws is rolled back alone (the batch runs again, each projection's part
 * under a savepoint) and marked failed (in memory, `status()`, and in `projection_failures`),
 * and the others commit and go on. The failed one leaves the batches and retries on its own
 * from its checkpoint, with backoff; once it has caught up, the batches take it back.
 */
export class Projector implements ProjectionProgress {
  private readonly schema: string;
  private readonly batchSize: number;
  private readonly waiters = new PositionWaiters();
  private controller: AbortController | undefined;
  /** Events this projector has applied since it was made. */
  applied = 0;
  private following: Promise<void> | undefined;
  private readonly failures = new Map<string, Failure>();
  /** Projections with a row in `projection_failures` (to delete once they apply again). */
  private readonly recorded = new Set<string>();
  /** The main batches are between taking projections back and committing. */
  private applying = false;
  private readonly tell: (status: ProjectionStatus) => void;
  /** The event the projector cannot read: it stopped before it (see `start`). */
  private halted: EventDecodeError | null = null;
  private haltedAt: Date | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly db: Kysely<unknown>,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectorOptions = {},
  ) {
    this.schema = options.schema ?? READ_SCHEMA;
    this.batchSize = options.batchSize ?? 1000;
    this.tell =
      options.onStatus ?? ((status) => logStatus(status, options.logger ?? consoleLogger));
  }

  /** Following the event log (between `start` and `stop`, unless an event did not decode). */
  get running() {
    return this.following !== undefined && this.halted === null;
  }

  /** The event that stopped the projector, if one did: it cannot be decoded. */
  get stoppedBy(): EventDecodeError | null {
    return this.halted;
  }

  /**
   * The position the projector has passed: every live projection has applied everything up to
   * it. A failed projection is not waited for (see `status()`).
   */
  get position() {
    return this.waiters.position;
  }

  waitFor(position: bigint, timeoutMs: number) {
    return this.waiters.waitFor(position, timeoutMs);
  }

  /** Each projection: live, or failed at its checkpoint with the error. */
  status(): ProjectionStatus[] {
    return this.projections.map(({ name }) => {
      const failure =
        this.failures.get(name) ??
        (this.halted && {
          position: this.position,
          error: messageOf(this.halted),
          since: this.haltedAt ?? new Date(),
        });
      return failure
        ? {
            name,
            state: 'failed',
            position: failure.position,
            error: failure.error,
            since: failure.since,
          }
        : { name, state: 'live', position: this.position, error: null, since: null };
    });
  }

  /**
   * Follows new events until `stop`; recovers from failures by resuming at the checkpoint. An
   * event that does not decode stops it for good (retrying cannot help; skipping it would make
   * every read model wrong): everything before it is applied, nothing after, and `status()`,
   * `stoppedBy` and the log name the event's position. A fix (an upcaster) and a restart go on.
   */
  start() {
    if (this.following) return;
    const controller = new AbortController();
    this.controller = controller;
    this.halted = null;
    this.following = (async () => {
      while (!controller.signal.aborted) {
        try {
          await this.follow(controller.signal);
        } catch (error) {
          this.applying = false;
          if (controller.signal.aborted) break;
          if (error instanceof EventDecodeError) {
            await this.halt(error);
            break;
          }
          this.options.onError?.(error);
          await sleep(500, controller.signal);
        }
      }
    })();
  }

  /** Stops before an event that does not decode: logged, and recorded where health reads it. */
  private async halt(error: EventDecodeError) {
    const since = new Date();
    (this.options.logger ?? consoleLogger).error(
      {
        position: error.position.toString(),
        stream: error.stream,
        revision: error.revision.toString(),
        type: error.type,
        error: error.message,
      },
      `Projector stopped before position ${error.position}: ${error.message}. Nothing after it is applied; make the event readable (an upcaster) and restart.`,
    );
    try {
      const read = readModels(this.db, this.schema);
      const message = messageOf(error);
      for (const { name } of this.projections) {
        const position = (await checkpointOf(this.db, this.schema, [name])).toString();
        const at = new Date();
        await read
          .insertInto('projection_failures')
          .values({ name, position, error: message, failed_at: at, updated_at: at })
          .onConflict((oc) =>
            oc.column('name').doUpdateSet({ position, error: message, updated_at: at }),
          )
          .execute();
        this.recorded.add(name);
      }
    } catch (recording) {
      this.options.onError?.(recording);
    }
    this.haltedAt = since;
    this.halted = error;
  }

  async stop() {
    this.controller?.abort();
    await this.following;
    await Promise.all([...this.failures.values()].map((f) => f.recovery));
    this.following = undefined;
  }

  /**
   * Applies everything committed so far, then returns (rebuilds, tests, one-off runs). Here a
   * projection that throws fails the whole batch, and the call.
   */
  async catchUp() {
    // One read of the log to its end: the store reads its next page while a batch is applied.
    let from = await this.loadCheckpoint();
    let batch: LogEvent[] = [];
    const apply = async () => {
      await this.applyBatch(batch, from, this.projections, false);
      from = batch.at(-1)!.position;
      this.applied += batch.length;
      this.waiters.advance(from);
      batch = [];
    };
    for await (const event of this.store.readAll({ from, batch: this.batchSize })) {
      const undecodable = decodeInto(batch, event);
      if (undecodable) {
        if (batch.length > 0) await apply();
        throw undecodable;
      }
      if (batch.length === this.batchSize) await apply();
    }
    if (batch.length > 0) await apply();
  }

  /** The next events after `from`: up to the first that does not decode (then that error). */
  private async readBatch(from: bigint) {
    const batch: LogEvent[] = [];
    for await (const event of this.store.readAll({ from, batch: this.batchSize })) {
      const undecodable = decodeInto(batch, event);
      if (undecodable) {
        if (batch.length > 0) break;
        throw undecodable;
      }
      if (batch.length === this.batchSize) break;
    }
    return batch;
  }

  private async follow(signal: AbortSignal) {
    let lane = await this.loadCheckpoint();
    const events = this.store.subscribeAll({ from: lane, signal })[Symbol.asyncIterator]();
    let pending = events.next();
    try {
      while (!signal.aborted) {
        const first = await pending;
        if (first.done) return;
        const batch: LogEvent[] = [];
        let undecodable = decodeInto(batch, first.value);
        if (undecodable) throw undecodable;
        pending = events.next();
        // Take what is already there (catch-up reads come in pages); stop when the next event
        // would have to be waited for, so a live event is applied at once.
        while (batch.length < this.batchSize) {
          const next = await Promise.race([
            pending,
            new Promise<typeof NOTHING_YET>((resolve) => setImmediate(() => resolve(NOTHING_YET))),
          ]);
          if (next === NOTHING_YET || next.done) break;
          undecodable = decodeInto(batch, next.value);
          if (undecodable) break;
          pending = events.next();
        }
        this.applying = true;
        await this.takeBack(lane);
        const live = this.projections.filter((p) => !this.failures.has(p.name));
        const failed = live.length ? await this.applyBatch(batch, lane, live, true) : [];
        lane = batch.at(-1)!.position;
        this.applying = false;
        for (const failure of failed)
          this.fail(failure.projection, failure.position, failure.error);
        this.applied += batch.length;
        this.waiters.advance(lane);
        if (undecodable) throw undecodable;
      }
    } finally {
      await events.return?.();
    }
  }

  /**
   * Applies `batch` (the events after `from`) to `projections` in one transaction. Isolated, the
   * projections that throw are rolled back alone, recorded and returned: the batch runs with
   * every projection together first (savepoints cost two round trips a projection, and a live
   * batch is a few rows), and when one throws, it is rolled back whole and runs again with each
   * projection's part under a savepoint. Otherwise the first that throws fails the whole batch.
   */
  private async applyBatch(
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
        const row = {
          name: failure.projection.name,
          position: failure.position.toString(),
          error: messageOf(failure.error),
          failed_at: new Date(),
          updated_at: new Date(),
        };
        await read
          .insertInto('projection_failures')
          .values(row)
          .onConflict((oc) =>
            oc.column('name').doUpdateSet({
              position: row.position,
              error: row.error,
              updated_at: row.updated_at,
            }),
          )
          .execute();
      }
    });
    for (const name of cleared) this.recorded.delete(name);
    for (const failure of failures) this.recorded.add(failure.projection.name);
    return failures;
  }

  /** Marks `projection` failed (telling once per change) and starts its own catch-up. */
  private fail(projection: Projection, position: bigint, error: unknown) {
    const message = messageOf(error);
    const known = this.failures.get(projection.name);
    const failure: Failure = {
      position,
      error: message,
      since: known?.since ?? new Date(),
      recovery: known?.recovery,
      caughtUp: false,
    };
    this.failures.set(projection.name, failure);
    if (known?.position !== position || known.error !== message) {
      this.tell({
        name: projection.name,
        state: 'failed',
        position,
        error: message,
        since: failure.since,
      });
    }
    failure.recovery ??= this.recover(projection).finally(() => {
      const current = this.failures.get(projection.name);
      if (current) current.recovery = undefined;
    });
  }

  /** A failed projection on its own: from its checkpoint to the head, retrying with backoff. */
  private async recover(projection: Projection) {
    const signal = this.controller?.signal;
    if (!signal) return;
    let delay = this.options.retryMs ?? 500;
    const maxDelay = this.options.maxRetryMs ?? 15_000;
    while (!signal.aborted) {
      await sleep(delay, signal);
      if (signal.aborted) return;
      try {
        const reached = await this.catchUpAlone(projection);
        const failure = this.failures.get(projection.name);
        if (!failure) return;
        if (!this.applying && reached >= this.waiters.position) {
          this.resume(projection, reached);
        } else {
          failure.caughtUp = true; // the main batches take it back (closing any gap first)
        }
        return;
      } catch (error) {
        if (signal.aborted) return;
        const position = await checkpointOf(this.db, this.schema, [projection.name]).catch(
          () => this.failures.get(projection.name)?.position ?? 0n,
        );
        this.failFromRecovery(projection, position, error);
        delay = Math.min(delay * 2, maxDelay);
      }
    }
  }

  /** Applies everything after the projection's checkpoint to it alone; its checkpoint at the end. */
  private async catchUpAlone(projection: Projection) {
    for (;;) {
      const from = await checkpointOf(this.db, this.schema, [projection.name]);
      const batch = await this.readBatch(from);
      if (batch.length === 0) return from;
      const [failure] = await this.applyBatch(batch, from, [projection], true);
      if (!failure) continue;
      if (batch.length === 1) throw failure.error;
      // Find the event it fails on: one at a time up to it, so it waits right before it.
      let at = from;
      for (const event of batch) {
        const [one] = await this.applyBatch([event], at, [projection], true);
        if (one) throw one.error;
        at = event.position;
      }
    }
  }

  /** A failure seen by the projection's own catch-up: recorded like one from the batches. */
  private failFromRecovery(projection: Projection, position: bigint, error: unknown) {
    const known = this.failures.get(projection.name);
    if (!known) return;
    const message = messageOf(error);
    if (known.position !== position || known.error !== message) {
      known.position = position;
      known.error = message;
      this.tell({
        name: projection.name,
        state: 'failed',
        position,
        error: message,
        since: known.since,
      });
    }
  }

  /** Before a batch from `lane`: takes back the projections whose own catch-up is done. */
  private async takeBack(lane: bigint) {
    for (const projection of this.projections) {
      const failure = this.failures.get(projection.name);
      if (!failure?.caughtUp) continue;
      try {
        // The batches moved on while it caught up: it closes that gap first (the batches wait).
        let reached = await this.catchUpAlone(projection);
        while (reached < lane) reached = await this.catchUpAlone(projection);
        this.resume(projection, reached);
      } catch (error) {
        this.fail(projection, await checkpointOf(this.db, this.schema, [projection.name]), error);
      }
    }
  }

  private resume(projection: Projection, position: bigint) {
    this.failures.delete(projection.name);
    this.tell({
      name: projection.name,
      state: 'live',
      position,
      error: null,
      since: null,
    });
  }

  /** Where the batches start: the earliest checkpoint of the live projections. */
  private async loadCheckpoint() {
    const live = this.projections.filter((p) => !this.failures.has(p.name));
    const names = (live.length ? live : this.projections).map((p) => p.name);
    const from = await checkpointOf(this.db, this.schema, names);
    const recorded = await readModels(this.db, this.schema)
      .selectFrom('projection_failures')
      .select('name')
      .where(
        'name',
        'in',
        this.projections.map((p) => p.name),
      )
      .execute();
    for (const { name } of recorded) this.recorded.add(name);
    this.waiters.advance(from);
    return from;
  }
}
