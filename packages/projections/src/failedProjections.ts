import type { EventStore } from '@astra/event-store';
import type { Kysely } from 'kysely';
import { checkpointOf } from './checkpoints.ts';
import { decodeInto, type ProjectionBatches } from './projectionBatches.ts';
import type { LogEvent, Projection } from './projections/projection.ts';
import { messageOf, type ProjectionStatus } from './projectorStatus.ts';

/** Waits `ms`, or less when `signal` aborts (it never throws: the caller checks the signal). */
export const sleep = (ms: number, signal: AbortSignal) =>
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

export interface Failure {
  position: bigint;
  error: string;
  since: Date;
  /** Its own catch-up (with backoff) while it is out of the batches. */
  recovery: Promise<void> | undefined;
  /** Its catch-up reached the head: the main batches take it back. */
  caughtUp: boolean;
}

/** What a failed projection's own catch-up works with: the projector's log, tables and options. */
export interface RecoveryContext {
  store: EventStore;
  db: Kysely<unknown>;
  schema: string;
  batchSize: number;
  batches: ProjectionBatches;
  tell: (status: ProjectionStatus) => void;
  /** The first wait before a failed projection tries again; it doubles up to `maxRetryMs`. */
  retryMs: number;
  maxRetryMs: number;
  /**
   * Whether a projection that caught up to `reached` can go live at once: the main batches are
   * not between taking projections back and committing, and have not passed `reached`.
   */
  mayResumeAt: (reached: bigint) => boolean;
}

/**
 * The projections that failed: each leaves the main batches and retries on its own from its
 * checkpoint, with backoff; once it has caught up, the batches take it back (`takeBack`).
 */
export class FailedProjections {
  private readonly failures = new Map<string, Failure>();

  constructor(private readonly context: RecoveryContext) {}

  has(name: string) {
    return this.failures.has(name);
  }

  get(name: string): Failure | undefined {
    return this.failures.get(name);
  }

  /** Ends once every catch-up running has (they stop when their signal aborts). */
  async settled() {
    await Promise.all([...this.failures.values()].map((f) => f.recovery));
  }

  /** Marks `projection` failed (telling once per change) and starts its own catch-up. */
  fail(projection: Projection, position: bigint, error: unknown, signal: AbortSignal) {
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
      this.context.tell({
        name: projection.name,
        state: 'failed',
        position,
        error: message,
        since: failure.since,
      });
    }
    failure.recovery ??= this.recover(projection, signal).finally(() => {
      const current = this.failures.get(projection.name);
      if (current) current.recovery = undefined;
    });
  }

  /** Before a batch from `lane`: takes back the projections whose own catch-up is done. */
  async takeBack(projections: readonly Projection[], lane: bigint, signal: AbortSignal) {
    for (const projection of projections) {
      const failure = this.failures.get(projection.name);
      if (!failure?.caughtUp) continue;
      try {
        // The batches moved on while it caught up: it closes that gap first (the batches wait).
        let reached = await this.catchUpAlone(projection);
        while (reached < lane) reached = await this.catchUpAlone(projection);
        this.resume(projection, reached);
      } catch (error) {
        const { db, schema } = this.context;
        this.fail(projection, await checkpointOf(db, schema, [projection.name]), error, signal);
      }
    }
  }

  /** A failed projection on its own: from its checkpoint to the head, retrying with backoff. */
  private async recover(projection: Projection, signal: AbortSignal) {
    const { db, schema, retryMs, maxRetryMs } = this.context;
    let delay = retryMs;
    while (!signal.aborted) {
      await sleep(delay, signal);
      if (signal.aborted) return;
      try {
        const reached = await this.catchUpAlone(projection);
        const failure = this.failures.get(projection.name);
        if (!failure) return;
        if (this.context.mayResumeAt(reached)) {
          this.resume(projection, reached);
        } else {
          failure.caughtUp = true; // the main batches take it back (closing any gap first)
        }
        return;
      } catch (error) {
        if (signal.aborted) return;
        const position = await checkpointOf(db, schema, [projection.name]).catch(
          () => this.failures.get(projection.name)?.position ?? 0n,
        );
        this.failFromRecovery(projection, position, error);
        delay = Math.min(delay * 2, maxRetryMs);
      }
    }
  }

  /** Applies everything after the projection's checkpoint to it alone; its checkpoint at the end. */
  private async catchUpAlone(projection: Projection) {
    const { db, schema, batches } = this.context;
    for (;;) {
      const from = await checkpointOf(db, schema, [projection.name]);
      const batch = await this.readBatch(from);
      if (batch.length === 0) return from;
      const [failure] = await batches.apply(batch, from, [projection], true);
      if (!failure) continue;
      if (batch.length === 1) throw failure.error;
      // Find the event it fails on: one at a time up to it, so it waits right before it.
      let at = from;
      for (const event of batch) {
        const [one] = await batches.apply([event], at, [projection], true);
        if (one) throw one.error;
        at = event.position;
      }
    }
  }

  /** The next events after `from`: up to the first that does not decode (then that error). */
  private async readBatch(from: bigint) {
    const { store, batchSize } = this.context;
    const batch: LogEvent[] = [];
    for await (const event of store.readAll({ from, batch: batchSize })) {
      const undecodable = decodeInto(batch, event);
      if (undecodable) {
        if (batch.length > 0) break;
        throw undecodable;
      }
      if (batch.length === batchSize) break;
    }
    return batch;
  }

  /** A failure seen by the projection's own catch-up: recorded like one from the batches. */
  private failFromRecovery(projection: Projection, position: bigint, error: unknown) {
    const known = this.failures.get(projection.name);
    if (!known) return;
    const message = messageOf(error);
    if (known.position !== position || known.error !== message) {
      known.position = position;
      known.error = message;
      this.context.tell({
        name: projection.name,
        state: 'failed',
        position,
        error: message,
        since: known.since,
      });
    }
  }

  private resume(projection: Projection, position: bigint) {
    this.failures.delete(projection.name);
    this.context.tell({
      name: projection.name,
      state: 'live',
      position,
      error: null,
      since: null,
    });
  }
}
