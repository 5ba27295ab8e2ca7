import type { Decoded } from '@astra/contracts';
import type { EventStore, RecordedEvent } from '@astra/event-store';
import { decodeLogEvent } from '@astra/ledger';
import { type Logger, withoutEmails } from '../observability/logger.ts';
import type { AppDb } from '../storage/appDatabase.ts';
import {
  claimDue,
  type Effect,
  nextDue,
  type OutboxRow,
  recordEffects,
  recordFailure,
  recordSent,
} from './outbox.ts';

/**
 * A reactor: the projector's sibling for side effects (docs/architecture.md, "Reactors"). It
 * follows the log from its own checkpoint and records the effects each event calls for in the
 * outbox, in the same transaction as its checkpoint, so a replay or a restart records nothing
 * twice; a sender then performs each effect until it is done, retrying with backoff, parking it
 * after repeated (or permanent) failures.
 */
export interface Reactor {
  name: string;
  /** The stream prefixes it reacts to; other events only move its checkpoint. */
  streamPrefixes: readonly string[];
  /** The effects an event calls for (usually none). Called again on a replay: keys dedupe. */
  react(event: Decoded): Promise<Effect[]>;
  /** Performs an effect; resolves with the provider's id for it, or throws. */
  perform(row: OutboxRow): Promise<string>;
}

/** A failure that retrying cannot mend (a recipient the mail server refuses): parked at once. */
export class PermanentFailure extends Error {
  override readonly name = 'PermanentFailure';
}

export interface ReactorOptions {
  /** This process's id (`ApiProcess`): its claims name it, so a crash frees them. */
  processId: string;
  maxAttempts: number;
  retryBaseMs: number;
  logger: Logger;
  /** Effects performed at once. */
  concurrency?: number;
  /** Told of each attempt's outcome (the metrics). */
  onOutcome?: (row: OutboxRow, outcome: 'sent' | 'failed' | 'parked') => void;
}

/** Events reacted to between checkpoints: small, so a message is recorded soon after its event. */
const BATCH = 100;
const IDLE_POLL_MS = 1000;
const REACTING_AT_ONCE = 8;
const NOTHING_YET = Symbol('nothing yet');

/** Runs one reactor in this process: its follower (log → outbox) and its sender (outbox → world). */
export class ReactorRunner {
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];
  /** Set when the sender is woken while it is not asleep: its next sleep ends at once. */
  private woken = false;
  private wakeSleeper: (() => void) | undefined;
  private error: string | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly db: AppDb,
    readonly reactor: Reactor,
    private readonly options: ReactorOptions,
  ) {}

  start() {
    this.loops = [
      this.forever('follow', () => this.follow()),
      this.forever('send', () => this.send()),
    ];
  }

  /** Stops both loops; a message being sent finishes first. */
  async stop() {
    this.abort.abort();
    this.wakeSender();
    await Promise.all(this.loops);
  }

  /** The last failure of either loop (null: running well). */
  status() {
    return { running: !this.abort.signal.aborted, error: this.error };
  }

  /** Records effects that are not reactions to the log (the account-deleted message) and sends them. */
  async record(effects: Effect[]) {
    await recordEffects(this.db, this.reactor.name, effects);
    this.wakeSender();
  }

  /** The sender looks again now (an admin's retry). */
  wake() {
    this.wakeSender();
  }

  private async forever(loop: string, run: () => Promise<void>) {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        await run();
        this.error = null;
      } catch (error) {
        if (signal.aborted) return;
        this.error = error instanceof Error ? error.message : String(error);
        this.options.logger.error(
          { err: error, reactor: this.reactor.name, loop },
          'Reactor failed; resuming from its checkpoint',
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** Follows the log from the checkpoint: each batch's effects and checkpoint in one transaction. */
  private async follow() {
    const signal = this.abort.signal;
    let checkpoint = await this.checkpoint();
    const events = this.store.subscribeAll({ from: checkpoint, signal })[Symbol.asyncIterator]();
    let pending = events.next();
    try {
      while (!signal.aborted) {
        const first = await pending;
        if (first.done) return;
        const batch: RecordedEvent[] = [first.value];
        pending = events.next();
        // Take what is there already; a live event is reacted to at once.
        while (batch.length < BATCH) {
          const next = await Promise.race([
            pending,
            new Promise<typeof NOTHING_YET>((resolve) => setImmediate(() => resolve(NOTHING_YET))),
          ]);
          if (next === NOTHING_YET || next.done) break;
          batch.push(next.value);
          pending = events.next();
        }
        // Reacted to side by side: a reaction mostly waits (reading a stream, rendering).
        const relevant = batch.filter((recorded) =>
          this.reactor.streamPrefixes.some((prefix) => recorded.stream.startsWith(prefix)),
        );
        const effects: Effect[] = [];
        await eachAtMost(REACTING_AT_ONCE, relevant, async (recorded) => {
          const event = decodeLogEvent(recorded);
          if (event) effects.push(...(await this.reactor.react(event)));
        });
        const to = batch.at(-1)!.position;
        const moved = await this.db.transaction().execute(async (tx) => {
          const advanced = await tx
            .updateTable('reactor_checkpoints')
            .set({ position: to, updated_at: new Date() })
            .where('name', '=', this.reactor.name)
            .where('position', '=', String(checkpoint))
            .executeTakeFirst();
          // Another process moved it: this batch is theirs (its effects recorded or to be).
          if (advanced.numUpdatedRows === 0n) return false;
          await recordEffects(tx, this.reactor.name, effects);
          return true;
        });
        if (!moved) return; // starts again from the stored checkpoint
        checkpoint = to;
        if (effects.length > 0) this.wakeSender();
      }
    } finally {
      await events.return?.();
    }
  }

  /**
   * Where the reactor is. A reactor new to a log starts at its head: what happened before it
   * existed is not reacted to (no receipts for last year's purchases).
   */
  private async checkpoint(): Promise<bigint> {
    const found = await this.db
      .selectFrom('reactor_checkpoints')
      .select('position')
      .where('name', '=', this.reactor.name)
      .executeTakeFirst();
    if (found) return BigInt(found.position);
    let head = 0n;
    for await (const event of this.store.readAll({ direction: 'backwards', batch: 1 })) {
      head = event.position;
      break;
    }
    await this.db
      .insertInto('reactor_checkpoints')
      .values({ name: this.reactor.name, position: head })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return this.checkpoint();
  }

  /** Sends what is due, then waits for the next due time, a new effect or a retry. */
  private async send() {
    const signal = this.abort.signal;
    const { processId, concurrency = 8 } = this.options;
    while (!signal.aborted) {
      const claimed = await claimDue(this.db, this.reactor.name, processId, concurrency * 4);
      if (claimed.length > 0) {
        await eachAtMost(concurrency, claimed, (row) => this.performOne(row));
        continue;
      }
      const due = await nextDue(this.db, this.reactor.name);
      const wait = due ? Math.max(0, due.getTime() - Date.now()) : IDLE_POLL_MS;
      await this.sleep(Math.min(wait, IDLE_POLL_MS));
    }
  }

  private async performOne(row: OutboxRow) {
    let providerId: string;
    try {
      providerId = await this.reactor.perform(row);
    } catch (error) {
      // A server's refusal often quotes the address: the reason is kept and logged without it.
      const reason = withoutEmails(error instanceof Error ? error.message : String(error));
      const parked = await recordFailure(this.db, row, reason, {
        permanent: error instanceof PermanentFailure,
        maxAttempts: this.options.maxAttempts,
        retryBaseMs: this.options.retryBaseMs,
      });
      const log = {
        reactor: this.reactor.name,
        id: row.id,
        kind: row.kind,
        attempts: row.attempts,
        reason,
      };
      this.options.onOutcome?.(row, parked ? 'parked' : 'failed');
      if (parked)
        this.options.logger.error(log, 'Message parked: it is not tried again until retried');
      else this.options.logger.warn(log, 'Sending a message failed; it is tried again');
      return;
    }
    await recordSent(this.db, row, providerId);
    this.options.onOutcome?.(row, 'sent');
  }

  private wakeSender() {
    this.woken = true;
    this.wakeSleeper?.();
  }

  /** Waits `ms`, or less when woken (a new effect, a retry, the stop), even just before. */
  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.woken ? 0 : ms);
      this.woken = false;
      this.wakeSleeper = done;
    });
  }
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachAtMost<T>(limit: number, items: T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
