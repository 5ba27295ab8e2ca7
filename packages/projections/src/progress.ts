import { type Listen, Wakeup } from '@astra/event-store';
import type { Kysely } from 'kysely';
import { earliest, liveCheckpointOf } from './checkpoints.ts';
import { READ_SCHEMA } from './database.ts';

/** Where projector batches announce their commit (the payload: `checkpointsAnnouncement`). */
export const CHECKPOINTS_CHANNEL = 'astra_checkpoints';

/** What a committed batch announces: the projections of `schema` named have passed `position`. */
export interface CheckpointsAnnouncement {
  schema: string;
  position: bigint;
  names: readonly string[];
}

/** The payload of `CHECKPOINTS_CHANNEL`: `schema position name,name,…`. */
export const checkpointsAnnouncement = ({ schema, position, names }: CheckpointsAnnouncement) =>
  `${schema} ${position} ${names.join(',')}`;

const ANNOUNCEMENT = /^(\S+) (\d+) (\S+)$/;

/**
 * What a rebuild's swap announces: the read models of `schema` are new, and their checkpoints
 * may be behind what was announced of the old ones.
 */
export const readModelsSwapped = (schema: string) => `${schema} swapped`;

/** The announcement in a payload of `CHECKPOINTS_CHANNEL` (null when it is none). */
export const readCheckpointsAnnouncement = (payload: string): CheckpointsAnnouncement | null => {
  const parts = ANNOUNCEMENT.exec(payload);
  return parts
    ? { schema: parts[1]!, position: BigInt(parts[2]!), names: parts[3]!.split(',') }
    : null;
};

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
 * Progress of a projector in another process (the API's view when the projector runs on its
 * own). With `notifications`, each projector batch's commit (`CHECKPOINTS_CHANNEL`) says which
 * projections passed which position: once every projection waited for was announced past a
 * position, the waits up to it are over without a query. Otherwise (a projection announced by no
 * batch: failed, or its projector not started) an announcement has it read the checkpoints at
 * once, and polling every `intervalMs` stays, for notifications lost. Like the projector's own
 * `position`, the read does not wait for a projection recorded as failed.
 */
export class PolledProgress implements ProjectionProgress {
  private readonly waiters = new PositionWaiters();
  private polling: Promise<void> | undefined;
  private readonly wakeup = new Wakeup();
  /** A commit was announced since the last read of the checkpoints began. */
  private announced = false;
  private stopListening: (() => void) | undefined;
  /** Each projection's newest announced position (since the read models were last swapped). */
  private readonly announcedAt = new Map<string, bigint>();

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly names: readonly string[],
    private readonly intervalMs = 20,
    notifications?: Listen,
  ) {
    this.stopListening = notifications?.listen(CHECKPOINTS_CHANNEL, (payload) => {
      const announcement = payload ? readCheckpointsAnnouncement(payload) : null;
      if (announcement && announcement.schema !== READ_SCHEMA) return; // a rebuild's schema
      if (payload === readModelsSwapped(READ_SCHEMA)) this.announcedAt.clear();
      if (announcement) {
        this.heard(announcement);
        // A batch ending where every waiter is already released changes nothing for them.
        if (announcement.position <= this.waiters.position) return;
      }
      this.announced = true;
      this.wakeup.wake();
    });
  }

  /** Releases the waits up to the earliest position every projection waited for was announced at. */
  private heard({ position, names }: CheckpointsAnnouncement) {
    for (const name of names) {
      if (position > (this.announcedAt.get(name) ?? 0n)) this.announcedAt.set(name, position);
    }
    if (this.names.length === 0) return;
    this.waiters.advance(earliest(this.names.map((name) => this.announcedAt.get(name) ?? 0n)));
  }

  get position() {
    return this.waiters.position;
  }

  waitFor(position: bigint, timeoutMs: number) {
    const waiting = this.waiters.waitFor(position, timeoutMs);
    this.polling ??= this.poll()
      // The database did not answer: the waits run out; the next wait reads again.
      .catch(() => {})
      .finally(() => {
        this.polling = undefined;
      });
    return waiting;
  }

  /** Stops listening (the waits go on polling). */
  close() {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /**
   * Reads the checkpoints while waits are pending: at once without notifications; listening,
   * only when an announcement did not release them all, or after `intervalMs` (notifications
   * lost), since the projector's next commit names what it passed.
   */
  private async poll() {
    let wait = this.stopListening !== undefined;
    for (;;) {
      if (wait && !this.announced) await this.wakeup.wait(this.intervalMs);
      if (this.waiters.pending === 0) return;
      this.announced = false;
      this.waiters.advance(await liveCheckpointOf(this.db, READ_SCHEMA, this.names));
      // Announced during the read: it may have missed that commit, so read again at once.
      wait = true;
    }
  }
}
