import { EventDecodeError } from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import type { Kysely } from 'kysely';
import { checkpointOf } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';
import { FailedProjections, sleep } from './failedProjections.ts';
import { PositionWaiters, type ProjectionProgress } from './progress.ts';
import { type BatchFence, decodeInto, ProjectionBatches } from './projectionBatches.ts';
import type { LogEvent, Projection } from './projections/projection.ts';
import {
  consoleLogger,
  logStatus,
  messageOf,
  type ProjectionStatus,
  type ProjectorLogger,
} from './projectorStatus.ts';

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
  /**
   * Runs in each batch's transaction after its locks (a projector that must still lead):
   * throwing rolls the batch back, and the projector retries it, or stops when told to.
   */
  fence?: BatchFence;
}

const NOTHING_YET = Symbol('nothing yet');

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
  private readonly batches: ProjectionBatches;
  private readonly failures: FailedProjections;
  /** The main batches are between taking projections back and committing. */
  private applying = false;
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
    this.batches = new ProjectionBatches(db, this.schema, options.fence);
    this.failures = new FailedProjections({
      store,
      db,
      schema: this.schema,
      batchSize: this.batchSize,
      batches: this.batches,
      tell: options.onStatus ?? ((status) => logStatus(status, options.logger ?? consoleLogger)),
      retryMs: options.retryMs ?? 500,
      maxRetryMs: options.maxRetryMs ?? 15_000,
      mayResumeAt: (reached) => !this.applying && reached >= this.waiters.position,
    });
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
      const names = this.projections.map((p) => p.name);
      await this.batches.recordStopped(names, messageOf(error));
    } catch (recording) {
      this.options.onError?.(recording);
    }
    this.haltedAt = since;
    this.halted = error;
  }

  async stop() {
    this.controller?.abort();
    await this.following;
    await this.failures.settled();
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
      await this.batches.apply(batch, from, this.projections, false);
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
        await this.failures.takeBack(this.projections, lane, signal);
        const live = this.projections.filter((p) => !this.failures.has(p.name));
        const failed = live.length ? await this.batches.apply(batch, lane, live, true) : [];
        lane = batch.at(-1)!.position;
        this.applying = false;
        for (const failure of failed)
          this.failures.fail(failure.projection, failure.position, failure.error, signal);
        this.applied += batch.length;
        this.waiters.advance(lane);
        if (undecodable) throw undecodable;
      }
    } finally {
      await events.return?.();
    }
  }

  /** Where the batches start: the earliest checkpoint of the live projections. */
  private async loadCheckpoint() {
    const live = this.projections.filter((p) => !this.failures.has(p.name));
    const names = (live.length ? live : this.projections).map((p) => p.name);
    const from = await checkpointOf(this.db, this.schema, names);
    await this.batches.loadRecorded(this.projections.map((p) => p.name));
    this.waiters.advance(from);
    return from;
  }
}
