/**
 * The SQL of `PostgresEventStore` and the mapping of its rows: the statements each operation
 * runs, built here so the store reads as the operations themselves.
 */
import { randomUUID } from 'node:crypto';
import type { ExpectedRevision, NewEvent, ReadAllFilter, RecordedEvent } from '../port.ts';
import { horizonSql } from './horizon.ts';
import { ORDINAL_BITS } from './schema.ts';

/**
 * A read's page comes back as one row holding one JSON array of events, each an array in this
 * order (see `pageSql`): one `JSON.parse` for a page instead of a row and its fields' parsing for
 * each event, which halves what a read costs this process (PostgreSQL does a little more).
 */
type PageEvent = [
  position: string,
  stream: string,
  revision: number,
  id: string,
  type: string,
  data: unknown,
  metadata: Record<string, unknown> | null,
  recordedAtMs: number,
  /** Reads filtered by stream prefix or eliding: whether the stream is one of the filter's. */
  wanted?: boolean,
  /** Reads filtered by stream prefix or eliding: whether the event is elided (`elideFrom`). */
  later?: boolean,
];

/** The columns a page's rows have (its inner select), before `pageSql` turns them into JSON. */
const columns = 'position, stream_name, revision, event_id, type, data, metadata, recorded_at';

/**
 * Turns a select of `columns` (and `wanted` and `later`, for reads filtered by stream prefix or
 * eliding) into one row, `page`: the JSON array of its events in position order (null when there
 * are none). Positions travel as text: they pass 2^53.
 */
const pageSql = (rows: string, direction: 'forwards' | 'backwards', flags = false) => `
SELECT json_agg(json_build_array(position::text, stream_name, revision, event_id, type, data,
  metadata, floor(extract(epoch FROM recorded_at) * 1000)${flags ? ', wanted, later' : ''})
  ORDER BY position${direction === 'backwards' ? ' DESC' : ''})::text AS page
FROM (${rows}) AS events`;

export type PageRow = { page: string | null };

export const pageOf = (rows: readonly PageRow[]): PageEvent[] => {
  const page = rows[0]?.page;
  return page ? (JSON.parse(page) as PageEvent[]) : [];
};

export const toRecorded = (event: PageEvent): RecordedEvent => ({
  id: event[3],
  stream: event[1],
  revision: BigInt(event[2]),
  position: BigInt(event[0]),
  type: event[4],
  data: event[5],
  metadata: event[6] ?? {},
  recordedAt: new Date(event[7]),
});

/**
 * One statement per append, in shapes by expected revision. Events get their stream revisions
 * from the expected one and global positions from this transaction's id; the unique
 * (stream_name, revision) constraint turns a lost race into a conflict. One append per
 * transaction: a second one would reuse the positions (and fail on the primary key).
 *
 * A lost race is no SQL error where that can be atomic: an append of one event skips it (`ON
 * CONFLICT … DO NOTHING`) and comes back with no row. An append of several events keeps the
 * error (skipping would store the events that do not collide and lose the others); the pool
 * keeps its connection through it (see `connection.ts`).
 */
const skipLostRace = 'ON CONFLICT ON CONSTRAINT events_stream_revision_key DO NOTHING';

const appendSql = (base: string, guard: string, onConflict = '') => `
INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata)
SELECT (pg_current_xact_id()::text::bigint << ${ORDINAL_BITS}) + e.ord - 1, $1, base.revision + e.ord,
       e.id, e.type, e.data, e.metadata
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (id uuid, type text, data jsonb, metadata jsonb))
       WITH ORDINALITY AS e(id, type, data, metadata, ord),
     (SELECT ${base} AS revision) AS base
WHERE ${guard}
${onConflict}
RETURNING position::text AS position, revision::text AS revision`;

/** The usual command appends one event at a known revision: its own statement, no JSON array. */
const appendOneAtRevision = {
  name: 'events_append_one_at_revision',
  text: `
INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata)
SELECT pg_current_xact_id()::text::bigint << ${ORDINAL_BITS}, $1, $2::bigint + 1, $3::uuid, $4, $5::jsonb, $6::jsonb
WHERE EXISTS (SELECT 1 FROM events WHERE stream_name = $1 AND revision = $2::bigint)
${skipLostRace}
RETURNING position::text AS position, revision::text AS revision`,
};

const currentRevision = '(SELECT max(revision) FROM events WHERE stream_name = $1)';

const appendShapes = {
  revision: {
    name: 'events_append_at_revision',
    base: '$3::bigint',
    guard: 'EXISTS (SELECT 1 FROM events WHERE stream_name = $1 AND revision = $3::bigint)',
  },
  no_stream: { name: 'events_append_new', base: '-1::bigint', guard: 'true' },
  any: { name: 'events_append_any', base: `coalesce(${currentRevision}, -1)`, guard: 'true' },
  stream_exists: {
    name: 'events_append_existing',
    base: `coalesce(${currentRevision}, -1)`,
    guard: 'base.revision >= 0',
  },
} as const;

export type AppendMode = keyof typeof appendShapes;
type AppendStatement = { name: string; text: string };

/** Each shape's statement for several events, and for one (`skipLostRace`). */
const appendStatements = Object.fromEntries(
  Object.entries(appendShapes).map(([mode, { name, base, guard }]) => [
    mode,
    {
      several: { name, text: appendSql(base, guard) },
      one: { name: `${name}_one`, text: appendSql(base, guard, skipLostRace) },
    },
  ]),
) as Record<AppendMode, { several: AppendStatement; one: AppendStatement }>;

/**
 * The statement and parameters that append `events` to `stream` at `expected` (events without an
 * id get a new one), and the shape's `mode` (how a lost race is retried).
 */
export function appendStatementOf(
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): { statement: AppendStatement; params: unknown[]; mode: AppendMode } {
  const rows = events.map((event) => ({
    id: event.id ?? randomUUID(),
    type: event.type,
    data: event.data ?? null,
    metadata: event.metadata ?? {},
  }));
  const mode = typeof expected === 'bigint' ? 'revision' : expected;
  if (typeof expected === 'bigint' && rows.length === 1) {
    return {
      statement: appendOneAtRevision,
      params: [
        stream,
        expected.toString(),
        rows[0]!.id,
        rows[0]!.type,
        JSON.stringify(rows[0]!.data),
        JSON.stringify(rows[0]!.metadata),
      ],
      mode,
    };
  }
  return {
    statement: appendStatements[mode][rows.length === 1 ? 'one' : 'several'],
    params:
      typeof expected === 'bigint'
        ? [stream, JSON.stringify(rows), expected.toString()]
        : [stream, JSON.stringify(rows)],
    mode,
  };
}

/** The constraint a unique violation names (its field, or else its message), if it is one. */
export const violatedConstraint = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint, message } = error as {
    code?: string;
    constraint?: string;
    message?: string;
  };
  if (code !== '23505') return undefined;
  return constraint ?? /constraint "([^"]+)"/.exec(message ?? '')?.[1];
};

/** A stream's newest revision (null: no such stream). */
export const streamHeadSql =
  'SELECT max(revision)::text AS revision FROM events WHERE stream_name = $1';

// Only positions below the oldest running transaction are final: nothing can commit there later.
// The page is taken first (the next events after the checkpoint, by the position index) and then
// cut at that horizon. Written as one range, `position > $1 AND position < horizon`, the planner
// guesses its size from a default selectivity on a table without statistics (just loaded, just
// restored) and fetched and sorted every later event for each page instead.
export const readAllSql = pageSql(
  `SELECT ${columns} FROM (
  SELECT * FROM events WHERE position > $1::bigint ORDER BY position LIMIT $2
) AS events
WHERE events.position < ${horizonSql}`,
  'forwards',
);

/**
 * A filter as the SQL takes it: distinct types, `LIKE` patterns of the stream prefixes, and the
 * instant from which events are elided.
 */
export interface SqlFilter {
  types: string[] | null;
  patterns: string[] | null;
  elideFrom: string | null;
}

/** `LIKE` patterns of names that start with each prefix (its `%`, `_` and backslashes are literal). */
export const prefixPatterns = (prefixes: readonly string[]) =>
  prefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`);

export const sqlFilterOf = (
  filter: ReadAllFilter | undefined,
  elideFrom: string | null = null,
): SqlFilter => {
  const types = [...new Set(filter?.types ?? [])];
  const prefixes = [...new Set(filter?.streamPrefixes ?? [])];
  return {
    types: types.length ? types : null,
    patterns: prefixes.length ? prefixPatterns(prefixes) : null,
    elideFrom,
  };
};

/**
 * The reads of the global log other than the plain forward page (`readAllSql`): `$1` the
 * checkpoint (forwards: after it; backwards: before it), `$2` the page size, then one parameter
 * per type, then the stream-name patterns and the instant `elideFrom` when the filter has them
 * (see `filteredReadParams`).
 *
 * - Forwards, the page is taken first and then cut at the visibility bound, as in `readAllSql`:
 *   what is left is a prefix of the filtered log that no late commit can change.
 * - Backwards, the bound is part of the condition: the page holds the newest events below both
 *   `$1` and the bound (a page cut afterwards could come back short, which reads as the log's
 *   start).
 * - With types, each type is a page of its own, merged by position: the planner sees each type's
 *   name (with statistics, how common it is) and walks `events_type_position` for a rare one, so
 *   a rare type never walks the whole log.
 * - Stream prefixes are no condition but a column, `wanted`, that the reader checks while it
 *   pages on by every row (other streams' rows come without their data). As a condition, on a
 *   table without statistics, the planner fetched and sorted every event in range for each page;
 *   as a column, each page walks an index (of positions, or of types) one page at a time: never
 *   one long statement.
 */
export function filteredReadSql(direction: 'forwards' | 'backwards', filter: SqlFilter): string {
  const forwards = direction === 'forwards';
  const order = forwards ? 'ORDER BY position' : 'ORDER BY position DESC';
  const range = forwards
    ? 'position > $1::bigint'
    : `position < $1::bigint AND position < ${horizonSql}`;
  const types = filter.types ?? [];
  const page = types.length
    ? `SELECT * FROM (${types
        .map(
          (_, i) => `(SELECT * FROM events WHERE type = $${i + 3} AND ${range} ${order} LIMIT $2)`,
        )
        .join('\n  UNION ALL ')}) AS merged
  ${order} LIMIT $2`
    : `SELECT * FROM events WHERE ${range} ${order} LIMIT $2`;
  // Other streams' events come back without their data: the reader pages on by them. So do the
  // events that happened at or after `elideFrom` (compared as text, byte by byte, only when both
  // are in `toISOString`'s form: as the report's own test of an instant does).
  const flags = filter.patterns !== null || filter.elideFrom !== null;
  let parameter = types.length + 3;
  const wanted = filter.patterns ? `stream_name LIKE ANY($${parameter++}::text[])` : 'true';
  const occurredAt = "metadata->>'occurredAt'";
  const later = filter.elideFrom
    ? `coalesce(${occurredAt} >= $${parameter++}::text COLLATE "C" AND length(${occurredAt}) = 24 AND ${occurredAt} LIKE '%Z', false)`
    : 'false';
  const selected = flags
    ? `position, stream_name, revision, event_id, type,
  CASE WHEN wanted AND NOT later THEN data END AS data,
  CASE WHEN wanted AND NOT later THEN metadata END AS metadata, recorded_at, wanted, later
  FROM (SELECT *, ${wanted} AS wanted, ${later} AS later FROM (${page}) AS page)`
    : `${columns} FROM (${page})`;
  const rows = forwards
    ? `SELECT ${selected} AS events WHERE events.position < ${horizonSql}`
    : `SELECT ${selected} AS events`;
  return pageSql(rows, direction, flags);
}

/** The parameters of `filteredReadSql` after `$1` and `$2`. */
export const filteredReadParams = (filter: SqlFilter): unknown[] => [
  ...(filter.types ?? []),
  ...(filter.patterns ? [filter.patterns] : []),
  ...(filter.elideFrom ? [filter.elideFrom] : []),
];

/** Before every position: where a backwards read without `from` starts. */
export const END_OF_LOG = (1n << 63n) - 1n;

export const readStreamSql = pageSql(
  `SELECT ${columns} FROM events
WHERE stream_name = $1 AND revision >= $2::bigint
ORDER BY events.revision
LIMIT $3`,
  'forwards',
);

/** Where appends are announced; the payload is the newest position appended (as text). */
export const EVENTS_CHANNEL = 'astra_events';

/**
 * The announcement, after the append committed and in a transaction of its own. A transaction
 * that notifies holds a lock global to the database from its commit until the commit is on disk:
 * inside the append, that would serialize every append's flush. With `synchronous_commit` off
 * the announcement's own commit does not wait for the disk (it stores nothing to lose).
 */
export const announceSql = {
  name: 'events_announce',
  text: `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${EVENTS_CHANNEL}', $1)`,
};
