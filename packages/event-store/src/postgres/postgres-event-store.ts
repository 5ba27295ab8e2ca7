import { randomUUID } from 'node:crypto';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllFilter,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeAllOptions,
  WrongExpectedRevisionError,
} from '../port.ts';
import { Wakeup } from '../wakeup.ts';
import { DEFAULT_HORIZON_STALL_MS, headAndHorizon, horizonSql, waitForHorizon } from './horizon.ts';
import type { Listen } from './notifications.ts';
import { createEventsTable, MAX_EVENTS_PER_TRANSACTION, ORDINAL_BITS } from './schema.ts';
import type { SqlClient } from './sql-client.ts';

export interface PostgresEventStoreOptions {
  /**
   * How often a caught-up subscription looks for events appended by other processes; with
   * `notifications`, only the fallback for notifications lost (a dropped listening connection).
   */
  pollIntervalMs?: number;
  /**
   * LISTEN/NOTIFY on PostgreSQL: appends are announced on `EVENTS_CHANNEL` and subscriptions
   * wake on announcements from every process (without it, only on this store's own appends).
   */
  notifications?: Listen;
  /** Runs when the store closes (ends the pool or the PGlite instance). */
  onClose?: () => Promise<void>;
  kind?: string;
  /**
   * How long a `readAll` waits at its end for transactions still running below the log's head
   * (default 30 s), before it fails with `LogHorizonStalledError`.
   */
  horizonWaitMs?: number;
}

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

const pageOf = (rows: readonly { page: string | null }[]): PageEvent[] => {
  const page = rows[0]?.page;
  return page ? (JSON.parse(page) as PageEvent[]) : [];
};

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

type AppendMode = keyof typeof appendShapes;
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
const END_OF_LOG = (1n << 63n) - 1n;

const readStreamSql = pageSql(
  `SELECT ${columns} FROM events
WHERE stream_name = $1 AND revision >= $2::bigint
ORDER BY events.revision
LIMIT $3`,
  'forwards',
);

const toRecorded = (event: PageEvent): RecordedEvent => ({
  id: event[3],
  stream: event[1],
  revision: BigInt(event[2]),
  position: BigInt(event[0]),
  type: event[4],
  data: event[5],
  metadata: event[6] ?? {},
  recordedAt: new Date(event[7]),
});

type PageRow = { page: string | null };

/**
 * Lets a query just asked for reach the server before the reader goes on. `pg`'s pool sends it
 * from a `process.nextTick`, which runs only once the microtasks are done; a reader working
 * through a page in a `for await` loop is all microtasks, so without this the next page would be
 * asked for only after this one was worked through, and never read meanwhile.
 */
const sent = () => new Promise<void>((resolve) => process.nextTick(resolve));

const violatedConstraint = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint, message } = error as {
    code?: string;
    constraint?: string;
    message?: string;
  };
  if (code !== '23505') return undefined;
  return constraint ?? /constraint "([^"]+)"/.exec(message ?? '')?.[1];
};

const MAX_ANY_RETRIES = 20;

/** Where appends are announced; the payload is the newest position appended (as text). */
export const EVENTS_CHANNEL = 'astra_events';

/**
 * The announcement, after the append committed and in a transaction of its own. A transaction
 * that notifies holds a lock global to the database from its commit until the commit is on disk:
 * inside the append, that would serialize every append's flush. With `synchronous_commit` off
 * the announcement's own commit does not wait for the disk (it stores nothing to lose).
 */
const announceSql = {
  name: 'events_announce',
  text: `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${EVENTS_CHANNEL}', $1)`,
};

/**
 * The least time between two announcements of one process. Under a steady stream of appends
 * the announcements would otherwise run back to back, each a statement and a commit taking
 * PostgreSQL's notification lock: a millisecond's wait folds every append of that millisecond
 * into one announcement, and a reader in another process learns of them at most that much later.
 */
const ANNOUNCE_EVERY_MS = 1;

export class PostgresEventStore implements EventStore {
  readonly kind: string;
  private readonly appended = new Wakeup();
  /** The newest position known to be committed (appended here, or announced by others). */
  private newest = 0n;
  /** Announcements to send: the newest position not yet announced, and the one being sent. */
  private unannounced: bigint | null = null;
  private announcing: Promise<void> | undefined;
  private readonly pollIntervalMs: number;
  private readonly horizonWaitMs: number;

  constructor(
    private readonly sql: SqlClient,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.kind = options.kind ?? 'postgres';
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.horizonWaitMs = options.horizonWaitMs ?? DEFAULT_HORIZON_STALL_MS;
  }

  /** Creates the events table when missing and returns the store. */
  static async open(sql: SqlClient, options: PostgresEventStoreOptions = {}) {
    await sql.exec(createEventsTable);
    return new PostgresEventStore(sql, options);
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    { expected }: { expected: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    if (BigInt(events.length) > MAX_EVENTS_PER_TRANSACTION) {
      throw new Error(`append takes at most ${MAX_EVENTS_PER_TRANSACTION} events`);
    }
    const rows = events.map((event) => ({
      id: event.id ?? randomUUID(),
      type: event.type,
      data: event.data ?? null,
      metadata: event.metadata ?? {},
    }));
    const mode = typeof expected === 'bigint' ? 'revision' : expected;
    const [statement, params] =
      typeof expected === 'bigint' && rows.length === 1
        ? [
            appendOneAtRevision,
            [
              stream,
              expected.toString(),
              rows[0]!.id,
              rows[0]!.type,
              JSON.stringify(rows[0]!.data),
              JSON.stringify(rows[0]!.metadata),
            ],
          ]
        : [
            appendStatements[mode][rows.length === 1 ? 'one' : 'several'],
            typeof expected === 'bigint'
              ? [stream, JSON.stringify(rows), expected.toString()]
              : [stream, JSON.stringify(rows)],
          ];

    for (let attempt = 0; ; attempt++) {
      let appended: { position: string; revision: string } | undefined;
      try {
        const { rows } = await this.sql.query<{ position: string; revision: string }>(
          statement.text,
          params,
          statement.name,
        );
        appended = rows.at(-1);
      } catch (error) {
        const constraint = violatedConstraint(error);
        if (constraint === 'events_event_id_key') {
          throw new Error(`An event with one of these ids was already appended (${stream})`);
        }
        if (constraint !== 'events_stream_revision_key') throw error;
      }
      if (appended) {
        const position = BigInt(appended.position);
        this.committed(position);
        this.announce(position);
        return { nextRevision: BigInt(appended.revision), position };
      }
      // Nothing appended: the stream was not where `expected` said, or another append took the
      // next revision first. `any` and `stream_exists` only lost such a race: they try again.
      const retries = attempt < MAX_ANY_RETRIES;
      if (mode === 'any' && retries) continue;
      const head = await this.head(stream);
      if (mode === 'stream_exists' && head !== 'no_stream' && retries) continue;
      throw new WrongExpectedRevisionError(stream, expected, head);
    }
  }

  async *readStream(stream: string, { from = 0n }: ReadStreamOptions = {}) {
    const pageSize = 1000;
    const read = async (revision: bigint) =>
      pageOf(
        (await this.sql.query<PageRow>(readStreamSql, [stream, revision.toString(), pageSize]))
          .rows,
      );
    let next = read(from);
    try {
      for (;;) {
        const page = await next;
        if (page.length < pageSize) {
          for (const row of page) yield toRecorded(row);
          return;
        }
        // The next page is read while the reader works through this one.
        next = read(BigInt(page[page.length - 1]![2]) + 1n);
        await sent();
        for (const row of page) yield toRecorded(row);
      }
    } finally {
      next.catch(() => {});
    }
  }

  async *readAll(options?: ReadAllOptions) {
    for await (const page of this.readAllPages(options)) yield* page;
  }

  async *readAllPages({
    from,
    batch = 1000,
    direction = 'forwards',
    filter,
    elideFrom,
  }: ReadAllOptions = {}) {
    if (!(batch >= 1)) throw new Error(`readAll needs a batch of at least 1, not ${batch}`);
    const sqlFilter = sqlFilterOf(filter, elideFrom ?? null);
    const plain =
      direction === 'forwards' && !sqlFilter.types && !sqlFilter.patterns && !sqlFilter.elideFrom;
    const text = plain ? readAllSql : filteredReadSql(direction, sqlFilter);
    const extra = filteredReadParams(sqlFilter);
    let checkpoint = from ?? (direction === 'forwards' ? 0n : END_OF_LOG);
    // Forwards, the read ends with everything committed up to the log's head as it stood at the
    // first short page: `end` is that head; `final` says the horizon had passed it before the
    // last page was read (so that page missed nothing below it).
    let end: bigint | null = null;
    let final = false;
    const read = async (after: bigint) =>
      pageOf((await this.sql.query<PageRow>(text, [after.toString(), batch, ...extra])).rows);
    let next = read(checkpoint);
    try {
      for (;;) {
        const page = await next;
        // A full page: the next one is read while the reader works through this one.
        const full = page.length === batch;
        if (full) {
          next = read(BigInt(page[page.length - 1]![0]));
          await sent();
        }
        const events: RecordedEvent[] = [];
        for (const row of page) {
          const event = toRecorded(row);
          checkpoint = event.position;
          if (row[8] === false) continue;
          if (row[9]) event.elided = true;
          events.push(event);
        }
        if (events.length > 0) yield events;
        if (full) continue;
        if (direction === 'backwards' || final) return;
        const { head, horizon } = await headAndHorizon(this.sql);
        end ??= head ?? 0n;
        if (checkpoint >= end) return;
        // A short page may have been cut at the horizon while events committed above it (a
        // transaction still running below them): wait for the horizon, then read on to `end`.
        if (horizon <= end) await waitForHorizon(this.sql, end, this.horizonWaitMs);
        final = true;
        next = read(checkpoint);
      }
    } finally {
      // A reader that stopped early leaves the next page's read in flight: its outcome is unused.
      next.catch(() => {});
    }
  }

  /**
   * Caught up, a subscription sleeps until an append here or an announcement (`notifications`)
   * wakes it, or the poll interval passes. A wake-up only says to read: an event known committed
   * but not read (an older transaction still open holds the horizon below it, or it committed
   * after the read) is looked for again soon, with backoff up to the poll interval.
   */
  async *subscribeAll({ from = 0n, signal }: SubscribeAllOptions = {}) {
    const batch = 1000;
    let checkpoint = from;
    let pause = 1;
    const stopListening = this.options.notifications?.listen(EVENTS_CHANNEL, this.announced);
    try {
      while (!signal?.aborted) {
        const events = await this.readBatch(checkpoint, batch);
        for (const event of events) {
          if (signal?.aborted) return;
          checkpoint = event.position;
          yield event;
        }
        if (events.length === batch) continue;
        if (this.newest > checkpoint) {
          await this.appended.wait(pause, signal);
          pause = Math.min(pause * 2, this.pollIntervalMs);
        } else {
          pause = 1;
          await this.appended.wait(this.pollIntervalMs, signal);
        }
      }
    } finally {
      stopListening?.();
    }
  }

  async close() {
    this.appended.wake();
    await this.announcing;
    await this.options.onClose?.();
  }

  /** A position known committed: wakes the subscriptions. */
  private committed(position: bigint) {
    if (position > this.newest) this.newest = position;
    this.appended.wake();
  }

  /** Another process's announcement (null: some may have been missed): wakes the subscriptions. */
  private readonly announced = (payload: string | null) => {
    if (payload && /^\d+$/.test(payload)) this.committed(BigInt(payload));
    else this.appended.wake();
  };

  /** Tells other processes of an append; one announcement at a time, of the newest position. */
  private announce(position: bigint) {
    if (!this.options.notifications) return;
    if (this.unannounced === null || position > this.unannounced) this.unannounced = position;
    this.announcing ??= this.sendAnnouncements();
  }

  private async sendAnnouncements() {
    for (;;) {
      const position = this.unannounced;
      if (position === null) {
        this.announcing = undefined;
        return;
      }
      this.unannounced = null;
      // Lost, it only leaves the subscribers to their polling.
      await this.sql
        .query(announceSql.text, [position.toString()], announceSql.name)
        .catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_EVERY_MS));
    }
  }

  private async readBatch(after: bigint, limit: number) {
    const { rows } = await this.sql.query<PageRow>(readAllSql, [after.toString(), limit]);
    return pageOf(rows).map(toRecorded);
  }

  private async head(stream: string): Promise<bigint | 'no_stream'> {
    const { rows } = await this.sql.query<{ revision: string | null }>(
      'SELECT max(revision)::text AS revision FROM events WHERE stream_name = $1',
      [stream],
    );
    const revision = rows[0]?.revision;
    return revision == null ? 'no_stream' : BigInt(revision);
  }
}
