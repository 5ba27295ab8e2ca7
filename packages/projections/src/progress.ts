import type { Kysely } from 'kysely';
import { liveCheckpointOf } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';

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
 * waits (the API's view when the projector runs on its own). Like the projector's own `position`,
 * it does not wait for a projection recorded as failed.
 */
export class PolledProgress implements ProjectionProgress {
  private readonly waiters = new PositionWaiters();
  private polling: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly names: readonly string[],
    private readonly intervalMs = 20,
  ) {}

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

  private async poll() {
    do {
      this.waiters.advance(await liveCheckpointOf(this.db, READ_SCHEMA, this.names));
      if (this.waiters.pending > 0) await new Promise((r) => setTimeout(r, this.intervalMs));
    } while (this.waiters.pending > 0);
  }
}
