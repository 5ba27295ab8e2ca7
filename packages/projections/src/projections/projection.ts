import {
  type Decoded,
  type EventMetadata,
  type EventOf,
  type EventSchemas,
  isEventOf,
} from '@astra/contracts';
import type { RecordedEvent } from '@astra/event-store';
import { decodeLogEvent } from '@astra/ledger';
import type { CompiledQuery } from 'kysely';
import { runStatements, type Write } from '../bulkInsert.ts';
import type { ReadDb } from '../database.ts';

/**
 * An event of the log as projections receive it: decoded (upcast and parsed by its contract) by
 * the projector when its stream is the app's; an event of any other stream as stored (no
 * projection reads those: `inCategory` takes only the app's, decoded).
 */
export type LogEvent = Decoded | ForeignEvent;
/** An event of a stream that is not the app's, as stored. */
export type ForeignEvent = RecordedEvent & { readonly foreign: true };

/**
 * A read model kept from events. `apply` receives a batch in global order inside the projector's
 * transaction, which also moves the projection's checkpoint: a batch lands whole or not at all.
 */
export interface Projection {
  readonly name: string;
  /** Tables this projection alone writes (compared by the rebuild test). */
  readonly tables: readonly string[];
  /**
   * The stream categories whose events it reads (`credits` for `credits-{id}`, …): a batch with
   * none of them costs it nothing but its checkpoint. Absent: every batch is applied.
   */
  readonly categories?: readonly string[];
  apply(db: ReadDb, events: readonly LogEvent[]): Promise<void>;
  /**
   * What `apply` writes, read and built but not run: statements of one table each (`INSERT` or
   * `UPDATE` with `$n` parameters, no `WITH`). The projector's batches run every projection's
   * writes and the checkpoints as one statement (`joinStatements`).
   */
  writes?(db: ReadDb, events: readonly LogEvent[]): Promise<CompiledQuery[]>;
  /**
   * A replay from position zero into empty tables (a rebuild): state carried in memory from
   * batch to batch, rows written in bulk. Without it the replay runs `apply` batch by batch.
   */
  replay?(options?: ReplayOptions): Replay;
}

export interface ReplayOptions {
  /** Rows a projection keeps in memory before it writes them and lets them go (one per key). */
  rowsInMemory?: number;
}

/**
 * One projection's part of a replay (`replayInto`). Its writes are built as batches are folded
 * and run while the next batch is folded, so the state lives in memory, never read back, unless
 * the replay flushed part of it to keep its memory bounded.
 */
export interface Replay {
  /**
   * Folds the next batch into memory. `settled` waits until every write handed out so far has
   * run: a replay awaits it before it reads rows it wrote back.
   */
  fold(events: readonly LogEvent[], db: ReadDb, settled: () => Promise<void>): void | Promise<void>;
  /** The writes due now, built already: at the end (`final`), everything left. */
  flush(final: boolean): Write[];
}

/** Where `occurredAt` keeps an event's date once parsed (a symbol: not part of its JSON). */
const OCCURRED_AT = Symbol('occurredAt');

/**
 * When the event happened by its metadata (the store's clock as a fallback). Parsed once per
 * event however many projections ask (a replay asks three times for every event of the log); the
 * date is shared, so nobody changes it.
 */
export const occurredAt = (event: RecordedEvent): Date => {
  const parsed = event as RecordedEvent & { [OCCURRED_AT]?: Date };
  parsed[OCCURRED_AT] ??= new Date(
    (event.metadata as Partial<EventMetadata>).occurredAt ?? event.recordedAt,
  );
  return parsed[OCCURRED_AT];
};

const CANONICAL_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * `occurredAt` as ISO text for a row: the metadata's own text when it is already the canonical
 * UTC form (as the app writes it), which spares formatting a date for every row of a replay.
 */
export const occurredText = (event: RecordedEvent): string => {
  const text = (event.metadata as Partial<EventMetadata>).occurredAt;
  return typeof text === 'string' && CANONICAL_INSTANT.test(text)
    ? text
    : occurredAt(event).toISOString();
};

export const actorOf = (event: RecordedEvent) => {
  const actor = (event.metadata as Partial<EventMetadata>).actor;
  if (!actor) return { kind: 'system', id: null, role: null };
  return actor.kind === 'user'
    ? { kind: 'user', id: actor.userId, role: actor.role }
    : { kind: actor.kind, id: null, role: null };
};

/**
 * The events of one stream category (`credits`, `user`, …) with the id after the prefix, as the
 * category's events (`schemas`): another type in such a stream is an error, never skipped.
 */
export const inCategory = <S extends EventSchemas>(
  events: readonly LogEvent[],
  category: string,
  schemas: S,
) => {
  const prefix = `${category}-`;
  const of = isEventOf(schemas);
  const found: { id: string; event: Decoded<EventOf<S>> & Decoded }[] = [];
  for (const event of events) {
    if ('foreign' in event || !event.stream.startsWith(prefix)) continue;
    if (!of(event)) throw notOfCategory(event, prefix);
    found.push({ id: event.stream.slice(prefix.length), event });
  }
  return found;
};

export const notOfCategory = (event: Decoded, prefix: string) =>
  new Error(
    `Event ${event.type} at position ${event.position} (stream ${event.stream}) is not an event of a ${prefix} stream`,
  );

/** Whether any of `events` is of one of `categories` (an app stream of those kinds). */
export const touches = (events: readonly LogEvent[], categories: readonly string[]) =>
  events.some(
    (event) =>
      !('foreign' in event) &&
      categories.some((category) => event.stream.startsWith(`${category}-`)),
  );

/** An event of the log as projections receive it: decoded, unless its stream is not the app's. */
export const logEventOf = (event: RecordedEvent): LogEvent =>
  decodeLogEvent(event) ?? { ...event, foreign: true };

export const chunks = <T>(items: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );

/** An `apply` that runs a projection's `writes`, one after the other. */
export const applyingWrites =
  (writes: NonNullable<Projection['writes']>): Projection['apply'] =>
  async (db, events) =>
    runStatements(db, await writes(db, events));
