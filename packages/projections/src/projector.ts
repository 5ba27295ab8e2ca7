import type { EventStore, RecordedEvent } from '@astra/event-store';
import { type Kysely, sql } from 'kysely';
import { checkpointOf, lockProjections } from './checkpoints.ts';
import { READ_SCHEMA, readModels } from './database.ts';
import { PositionWaiters, type ProjectionProgress } from './progress.ts';
import type { Projection } from './projections/projection.ts';

export interface ProjectorOptions {
  schema?: string;
  batchSize?: number;
  /** Told about failures the projector recovers from by retrying. */
  onError?: (error: unknown) => void;
}

const NOTHING_YET = Symbol('nothing yet');

/**
 * Follows the global order from the projections' checkpoint and applies events in batches: each
 * batch, every projection's rows and its checkpoint commit in one transaction. Checkpoints are
 * read again under the projections' locks, so a second projector or a replay applies nothing twice.
 */
export class Projector implements ProjectionProgress {
  private readonly schema: string;
  private readonly batchSize: number;
  private readonly waiters = new PositionWaiters();
  private controller: AbortController | undefined;
  /** Events this projector has applied since it was made. */
  applied = 0;
  private running_: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly db: Kysely<unknown>,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectorOptions = {},
  ) {
    this.schema = options.schema ?? READ_SCHEMA;
    this.batchSize = options.batchSize ?? 1000;
  }

  /** Following the event log (between `start` and `stop`). */
  get running() {
    return this.running_ !== undefined;
  }

  /** The position every projection has reached. */
  get position() {
    return this.waiters.position;
  }

  waitFor(position: bigint, timeoutMs: number) {
    return this.waiters.waitFor(position, timeoutMs);
  }

  /** Follows new events until `stop`; recovers from failures by resuming at the checkpoint. */
  start() {
    if (this.running_) return;
    const controller = new AbortController();
    this.controller = controller;
    this.running_ = (async () => {
      while (!controller.signal.aborted) {
        try {
          await this.follow(controller.signal);
        } catch (error) {
          if (controller.signal.aborted) break;
          this.options.onError?.(error);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    })();
  }

  async stop() {
    this.controller?.abort();
    await this.running_;
    this.running_ = undefined;
  }

  /** Applies everything committed so far, then returns (rebuilds, tests, one-off runs). */
  async catchUp() {
    // Reading the next batch overlaps applying this one.
    let next = this.readBatch(await this.loadCheckpoint());
    for (;;) {
      const batch = await next;
      if (batch.length === 0) return;
      next = this.readBatch(batch.at(-1)!.position);
      await this.applyBatch(batch).catch(async (error) => {
        await next.catch(() => {});
        throw error;
      });
    }
  }

  private async readBatch(from: bigint) {
    const batch: RecordedEvent[] = [];
    for await (const event of this.store.readAll({ from, batch: this.batchSize })) {
      batch.push(event);
      if (batch.length === this.batchSize) break;
    }
    return batch;
  }

  private async follow(signal: AbortSignal) {
    const from = await this.loadCheckpoint();
    const events = this.store.subscribeAll({ from, signal })[Symbol.asyncIterator]();
    let pending = events.next();
    try {
      while (!signal.aborted) {
        const first = await pending;
        if (first.done) return;
        const batch = [first.value];
        pending = events.next();
        // Take what is already there (catch-up reads come in pages); stop when the next event
        // would have to be waited for, so a live event is applied at once.
        while (batch.length < this.batchSize) {
          const next = await Promise.race([
            pending,
            new Promise<typeof NOTHING_YET>((resolve) => setImmediate(() => resolve(NOTHING_YET))),
          ]);
          if (next === NOTHING_YET || next.done) break;
          batch.push(next.value);
          pending = events.next();
        }
        await this.applyBatch(batch);
      }
    } finally {
      await events.return?.();
    }
  }

  private async applyBatch(batch: readonly RecordedEvent[]) {
    const names = this.projections.map((p) => p.name);
    await this.db.transaction().execute(async (trx) => {
      await lockProjections(trx, names);
      // Unqualified table names in a projection's SQL mean this projector's schema. The commit
      // need not wait for the disk: rows and checkpoint are lost together in a crash and the
      // events are applied again from the durable log.
      await sql`SELECT set_config('search_path', ${this.schema}, true),
        set_config('synchronous_commit', 'off', true)`.execute(trx);
      const read = readModels(trx, this.schema);
      const stored = new Map(
        (await read.selectFrom('checkpoints').selectAll().where('name', 'in', names).execute()).map(
          (row) => [row.name, BigInt(row.position)],
        ),
      );
      for (const projection of this.projections) {
        const checkpoint = stored.get(projection.name) ?? 0n;
        const fresh = batch.filter((event) => event.position > checkpoint);
        if (fresh.length === 0) continue;
        await projection.apply(read, fresh);
        await read
          .insertInto('checkpoints')
          .values({ name: projection.name, position: fresh.at(-1)!.position.toString() })
          .onConflict((oc) =>
            oc.column('name').doUpdateSet({ position: fresh.at(-1)!.position.toString() }),
          )
          .execute();
      }
    });
    this.applied += batch.length;
    this.waiters.advance(batch.at(-1)!.position);
  }

  private async loadCheckpoint() {
    const from = await checkpointOf(
      this.db,
      this.schema,
      this.projections.map((p) => p.name),
    );
    this.waiters.advance(from);
    return from;
  }
}
