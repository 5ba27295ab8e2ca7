import { type Decoded, type EventOf, type EventSchemas, isEventOf } from '@astra/contracts';
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { type BulkTable, prepareInsert, type Write, writeRowsQuery } from '../bulkInsert.ts';
import type { ReadDb } from '../database.ts';
import type { ReadModels } from '../schema.ts';
import {
  applyingWrites,
  chunks,
  type LogEvent,
  notOfCategory,
  type Projection,
  type Replay,
} from './projection.ts';

/**
 * A read model of one row per key, folded from the streams of some categories: a projection is
 * its table, key and `evolve`; loading the rows, the revision guard and the writes are here.
 */
/** The events of the stream categories `C` (category → its event schemas), decoded. */
export type CategoryEvent<C extends Record<string, EventSchemas>> = Decoded<
  { [K in keyof C]: EventOf<C[K]> }[keyof C]
>;

export interface RowProjection<
  T extends BulkTable,
  S extends Record<R, string>,
  R extends string,
  C extends Record<string, EventSchemas>,
> {
  name: string;
  table: T;
  /** The key column: its value is the id after the category prefix of the event's stream. */
  key: keyof ReadModels[T] & string;
  /**
   * The stream categories it follows (`user` for `user-{id}`, …), each with its events' schemas:
   * another type in such a stream is an error, never skipped.
   */
  categories: C;
  /** The column of the state holding the last revision applied from the event's stream. */
  revision: (event: CategoryEvent<C>) => R;
  /** The stored row as `evolve` works on it, and back. */
  decode: (row: Selectable<ReadModels[T]>) => S;
  encode: (state: S) => Insertable<ReadModels[T]>;
  /**
   * The row after the event; `undefined`: still no row (an event before the one that creates
   * it). It may change `state` in place: the state belongs to the projection alone.
   */
  evolve: (state: S | undefined, event: CategoryEvent<C>, id: string) => S | undefined;
  /** Other tables it writes (none by default). */
  tables?: readonly string[];
}

/** Rows a replay keeps in memory (by default) before it writes them and lets them go. */
const ROWS_IN_MEMORY = 100_000;

export function rowProjection<
  T extends BulkTable,
  S extends Record<R, string>,
  R extends string,
  C extends Record<string, EventSchemas>,
>(spec: RowProjection<T, S, R, C>): Projection {
  const followed = Object.entries(spec.categories).map(
    ([category, schemas]) => [`${category}-`, isEventOf(schemas)] as const,
  );
  type Touched = { id: string; event: CategoryEvent<C> };
  /** The batch's events of the followed streams, with the key of their row, in batch order. */
  const touched = (events: readonly LogEvent[]) => {
    const found: Touched[] = [];
    for (const event of events) {
      if ('foreign' in event) continue;
      for (const [prefix, of] of followed) {
        if (event.stream.startsWith(prefix)) {
          if (!of(event)) throw notOfCategory(event, prefix);
          found.push({ id: event.stream.slice(prefix.length), event: event as CategoryEvent<C> });
          break;
        }
      }
    }
    return found;
  };

  /** Folds the events into `rows`; the keys of the rows that changed. */
  const fold = (rows: Map<string, S>, events: Touched[]) => {
    const changed: string[] = [];
    for (const { id, event } of events) {
      const before = rows.get(id);
      const column = spec.revision(event);
      if (before && event.revision <= BigInt(before[column])) continue; // applied already
      const after = spec.evolve(before, event, id);
      if (!after) continue;
      (after as Record<R, string>)[column] = event.revision.toString();
      if (after !== before) rows.set(id, after);
      changed.push(id);
    }
    return changed;
  };

  const load = async (db: ReadDb, ids: readonly string[], into: Map<string, S>) => {
    // Kysely cannot check a query over a table chosen by a type parameter: the spec's types do.
    const read = db as unknown as Kysely<Record<string, Record<string, string>>>;
    for (const part of chunks(ids, 1000)) {
      const rows = await read
        .selectFrom(spec.table)
        .selectAll()
        .where(spec.key as string, 'in', part)
        .execute();
      for (const row of rows) {
        into.set(String(row[spec.key]), spec.decode(row as Selectable<ReadModels[T]>));
      }
    }
  };

  /** The replay's writes: the rows of `keys` (those of `stored` deleted first) by COPY. */
  const replace = (
    rows: Map<string, S>,
    keys: Iterable<string>,
    stored: (id: string) => boolean,
  ) => {
    const all = [...keys];
    const writes: Write[] = [];
    const existing = all.filter(stored);
    for (const part of chunks(existing, 1000)) {
      writes.push(async (db) => {
        await sql`DELETE FROM ${sql.id(spec.table)} WHERE ${sql.id(spec.key)} = ANY(${part}::text[])`.execute(
          db,
        );
      });
    }
    writes.push(
      prepareInsert(
        spec.table,
        all.map((id) => spec.encode(rows.get(id)!)),
      ),
    );
    return writes;
  };

  /** The batch's changed rows, each replacing its stored row (by its key). */
  const writes: NonNullable<Projection['writes']> = async (db, events) => {
    const found = touched(events);
    if (found.length === 0) return [];
    const rows = new Map<string, S>();
    await load(db, [...new Set(found.map((t) => t.id))], rows);
    const changed = [...new Set(fold(rows, found))];
    const query = writeRowsQuery(
      spec.table,
      changed.map((id) => spec.encode(rows.get(id)!)),
      spec.key,
    );
    return query ? [query] : [];
  };

  return {
    name: spec.name,
    tables: [spec.table, ...(spec.tables ?? [])],
    categories: Object.keys(spec.categories),
    writes,
    apply: applyingWrites(writes),
    replay({ rowsInMemory = ROWS_IN_MEMORY } = {}): Replay {
      const rows = new Map<string, S>();
      const dirty = new Set<string>();
      /** Keys whose rows were written and let go: read back when an event comes for them. */
      const written = new Set<string>();
      let due: Write[] = [];
      const write = () => {
        due.push(...replace(rows, dirty, (id) => written.has(id)));
        for (const id of rows.keys()) written.add(id);
        rows.clear();
        dirty.clear();
      };
      return {
        async fold(events, db, settled) {
          const found = touched(events);
          if (found.length === 0) return;
          const missing = [...new Set(found.map((t) => t.id))].filter(
            (id) => written.has(id) && !rows.has(id),
          );
          if (missing.length > 0) {
            await settled();
            await load(db, missing, rows);
          }
          for (const id of fold(rows, found)) dirty.add(id);
          if (rows.size >= rowsInMemory) write();
        },
        flush(final) {
          if (final && dirty.size > 0) write();
          const writes = due;
          due = [];
          return writes;
        },
      };
    },
  };
}
