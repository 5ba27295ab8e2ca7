import { type Listen, Wakeup } from '@astra/event-store';
import type { Kysely } from 'kysely';
import { liveCheckpointOf } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';

/** Where projector batches announce their commit; the payload is the batch's last position. */
export const CHECKPOINTS_CHANNEL = 'astra_checkpoints';

/** How far the read models are: commands wait on it to answer with their own writes visible. */
export interface ProjectionProgress {
  readonly position: bigint;
  /** Resolves true once every projection has passed `position`, false after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean>;
}

export class PositionWaiters {
  position = 0n;
  private waiting = new Set<{ target: bigint; resolve: (reached: boolean) => void }>();

  advance(position: bigint) {
    if (position <= this.position) return;
    this.position = position;
    for (const waiter of this.waiting) {
      if (waiter.target <= position) {
        this.waiting.delete(waiter);
        waiter.resolve(true);
      }
    }
  }

  waitFor(target: bigint, timeoutMs: number): Promise<boolean> {
    if (target <= this.position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        target,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiting.add(waiter);
    });
  }

  get pending() {
    return this.waiting.size;
  }
}

/**
 * Progress of a projector in another process, read from the checkpoints table while someone
 * waits (the API's view when the projector runs on its own). With `notifications`, a projector's
 * commit (`CHECKPOINTS_CHANNEL`) has it read the checkpoints at once; polling every `intervalMs`
 * stays, for notifications lost. Like the projector's own `position`, it does not wait for a
 * projection recorded as failed.
 */
export class PolledProgress implements ProjectionProgress {
  private readonly waiters = new PositionWaiters();
  private polling: Promise<void> | undefined;
  private readonly wakeup = new Wakeup();
  /** A commit was announced since the last read of the checkpoints began. */
  private announced = false;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly names: readonly string[],
    private readonly intervalMs = 20,
    notifications?: Listen,
  ) {
    this.stopListening = notifications?.listen(CHECKPOINTS_CHANNEL, (payload) => {
      // A batch ending where every waiter is already released changes nothing for them.
      if (payload && /^\d+$/.test(payload) && BigInt(payload) <= this.waiters.position) return;
      this.announced = true;
      this.wakeup.wake();
    });
  }

  get position() {
    return this.waiters.position;
  }

  waitFor(position: bigint, timeoutMs: number) {
    const waiting = this.waiters.waitFor(position, timeoutMs);
    this.polling ??= this.poll().finally(() => {
      this.polling = undefined;
    });
    return waiting;
  }

  /** Stops listening (the waits go on polling). */
  close() {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  private async poll() {
    do {
      this.announced = false;
      this.waiters.advance(await liveCheckpointOf(this.db, READ_SCHEMA, this.names));
      // Announced during the read: it may have missed that commit, so read again at once.
      if (this.waiters.pending > 0 && !this.announced) await this.wakeup.wait(this.intervalMs);
    } while (this.waiters.pending > 0);
  }
}
