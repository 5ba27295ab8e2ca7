import { randomUUID } from 'node:crypto';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeAllOptions,
  WrongExpectedRevisionError,
} from '../port.ts';
import { Wakeup } from '../wakeup.ts';
import { createEventsTable, MAX_EVENTS_PER_TRANSACTION, ORDINAL_BITS } from './schema.ts';
import type { SqlClient } from './sql-client.ts';

export interface PostgresEventStoreOptions {
  /** How often a caught-up subscription looks for events appended by other processes. */
  pollIntervalMs?: number;
  /** Runs when the store closes (ends the pool or the PGlite instance). */
  onClose?: () => Promise<void>;
  kind?: string;
}

type EventRow = {
  position: string;
  stream_name: string;
  revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date | string;
};

const columns = `position::text AS position, stream_name, revision::text AS revision, event_id::text AS event_id,
  type, data, metadata, recorded_at`;

/**
 * One statement per append, in three shapes by expected revision. Events get their stream
 * revisions from the expected one and global positions from this transaction's id; the unique
 * (stream_name, revision) constraint turns a lost race into a conflict. One append per
 * transaction: a second one would reuse the positions (and fail on the primary key).
 */
const appendSql = (base: string, guard: string) => `
INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata)
SELECT (pg_current_xact_id()::text::bigint << ${ORDINAL_BITS}) + e.ord - 1, $1, base.revision + e.ord,
       e.id, e.type, e.data, e.metadata
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (id uuid, type text, data jsonb, metadata jsonb))
       WITH ORDINALITY AS e(id, type, data, metadata, ord),
     (SELECT ${base} AS revision) AS base
WHERE ${guard}
RETURNING position::text AS position, revision::text AS revision`;

/** The usual command appends one event at a known revision: its own statement, no JSON array. */
const appendOneAtRevision = {
  name: 'events_append_one_at_revision',
  text: `
INSERT INTO events (position, stream_name, revision, event_id, type, data, metadata)
SELECT pg_current_xact_id()::text::bigint << ${ORDINAL_BITS}, $1, $2::bigint + 1, $3::uuid, $4, $5::jsonb, $6::jsonb
WHERE EXISTS (SELECT 1 FROM events WHERE stream_name = $1 AND revision = $2::bigint)
RETURNING position::text AS position, revision::text AS revision`,
};

const currentRevision = '(SELECT max(revision) FROM events WHERE stream_name = $1)';

const appendStatements = {
  revision: {
    name: 'events_append_at_revision',
    text: appendSql(
      '$3::bigint',
      'EXISTS (SELECT 1 FROM events WHERE stream_name = $1 AND revision = $3::bigint)',
    ),
  },
  no_stream: { name: 'events_append_new', text: appendSql('-1::bigint', 'true') },
  any: { name: 'events_append_any', text: appendSql(`coalesce(${currentRevision}, -1)`, 'true') },
  stream_exists: {
    name: 'events_append_existing',
    text: appendSql(`coalesce(${currentRevision}, -1)`, 'base.revision >= 0'),
  },
} as const;

// Only positions below the oldest running transaction are final: nothing can commit there later.
// The page is taken first (the next events after the checkpoint, by the position index) and then
// cut at that horizon. Written as one range, `position > $1 AND position < horizon`, the planner
// guesses its size from a default selectivity on a table without statistics (just loaded, just
// restored) and fetched and sorted every later event for each page instead.
export const readAllSql = `
SELECT ${columns} FROM (
  SELECT * FROM events WHERE position > $1::bigint ORDER BY position LIMIT $2
) AS events
WHERE events.position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << ${ORDINAL_BITS})
ORDER BY events.position`;

const readStreamSql = `
SELECT ${columns} FROM events
WHERE stream_name = $1 AND revision >= $2::bigint
ORDER BY events.revision
LIMIT $3`;

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  stream: row.stream_name,
  revision: BigInt(row.revision),
  position: BigInt(row.position),
  type: row.type,
  data: row.data,
  metadata: row.metadata ?? {},
  recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
});

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

export class PostgresEventStore implements EventStore {
  readonly kind: string;
  private readonly appended = new Wakeup();
  private readonly pollIntervalMs: number;

  constructor(
    private readonly sql: SqlClient,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.kind = options.kind ?? 'postgres';
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
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
            appendStatements[mode],
            typeof expected === 'bigint'
              ? [stream, JSON.stringify(rows), expected.toString()]
              : [stream, JSON.stringify(rows)],
          ];

    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.sql.query<{ position: string; revision: string }>(
          statement.text,
          params,
          statement.name,
        );
        const last = rows.at(-1);
        if (!last) throw new WrongExpectedRevisionError(stream, expected, await this.head(stream));
        this.appended.wake();
        return { nextRevision: BigInt(last.revision), position: BigInt(last.position) };
      } catch (error) {
        const constraint = violatedConstraint(error);
        if (constraint === 'events_event_id_key') {
          throw new Error(`An event with one of these ids was already appended (${stream})`);
        }
        if (constraint !== 'events_stream_revision_key') throw error;
        // `any` and `stream_exists` only lost a race for the next revision: try again.
        const retry = (mode === 'any' || mode === 'stream_exists') && attempt < MAX_ANY_RETRIES;
        if (!retry) throw new WrongExpectedRevisionError(stream, expected, await this.head(stream));
      }
    }
  }

  async *readStream(stream: string, { from = 0n }: ReadStreamOptions = {}) {
    const pageSize = 1000;
    let next = from;
    for (;;) {
      const { rows } = await this.sql.query<EventRow>(readStreamSql, [
        stream,
        next.toString(),
        pageSize,
      ]);
      for (const row of rows) {
        const event = toRecorded(row);
        next = event.revision + 1n;
        yield event;
      }
      if (rows.length < pageSize) return;
    }
  }

  async *readAll({ from = 0n, batch = 1000 }: ReadAllOptions = {}) {
    let checkpoint = from;
    for (;;) {
      const events = await this.readBatch(checkpoint, batch);
      for (const event of events) {
        checkpoint = event.position;
        yield event;
      }
      if (events.length < batch) return;
    }
  }

  async *subscribeAll({ from = 0n, signal }: SubscribeAllOptions = {}) {
    const batch = 1000;
    let checkpoint = from;
    while (!signal?.aborted) {
      const events = await this.readBatch(checkpoint, batch);
      for (const event of events) {
        if (signal?.aborted) return;
        checkpoint = event.position;
        yield event;
      }
      if (events.length < batch) await this.appended.wait(this.pollIntervalMs, signal);
    }
  }

  async close() {
    this.appended.wake();
    await this.options.onClose?.();
  }

  private async readBatch(after: bigint, limit: number) {
    const { rows } = await this.sql.query<EventRow>(readAllSql, [after.toString(), limit]);
    return rows.map(toRecorded);
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
