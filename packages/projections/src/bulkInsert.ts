import { CompiledQuery, type Insertable } from 'kysely';
import { copyRows, type ReadDb } from './database.ts';
import type { ReadModels } from './schema.ts';

type SqlType =
  | 'text'
  | 'uuid'
  | 'bigint'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'timestamptz'
  | 'jsonb';

/**
 * The SQL type of every column of the tables written in bulk, in table order. Each map names
 * every column of its table's interface (the compiler checks it), and a test checks it against
 * the catalog of a migrated schema.
 */
export const BULK_COLUMNS = {
  profiles: {
    id: 'text',
    email: 'text',
    full_name: 'text',
    first_name: 'text',
    last_name: 'text',
    avatar_url: 'text',
    birth_date: 'date',
    birth_time: 'text',
    birth_time_unknown: 'boolean',
    birth_city: 'text',
    birth_country: 'text',
    language: 'text',
    remaining_credits: 'bigint',
    credits: 'bigint',
    credits_per_month: 'bigint',
    credits_rollover_remaining: 'bigint',
    tier_id: 'integer',
    subscription_tier: 'text',
    subscription_type: 'text',
    subscription_status: 'text',
    subscription_id: 'text',
    next_renewal_date: 'date',
    last_credit_refresh_date: 'date',
    subscription_update_date: 'timestamptz',
    status: 'text',
    cancellation_date: 'timestamptz',
    role: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    user_revision: 'bigint',
    credits_revision: 'bigint',
    credit_lots: 'jsonb',
    subscription_credits: 'bigint',
    free_credits: 'bigint',
    promotional_credits: 'bigint',
    purchased_credits: 'bigint',
    birth_place: 'jsonb',
    erased_at: 'timestamptz',
  },
  ledger_entries: {
    position: 'bigint',
    event_id: 'uuid',
    user_id: 'text',
    stream_revision: 'bigint',
    type: 'text',
    amount: 'bigint',
    balance_after: 'bigint',
    credits_after: 'bigint',
    actor_kind: 'text',
    actor_id: 'text',
    actor_role: 'text',
    kind: 'text',
    details: 'jsonb',
    reference: 'jsonb',
    occurred_at: 'timestamptz',
  },
  usage_logs: {
    log_id: 'text',
    user_id: 'text',
    app_id: 'integer',
    app_name: 'text',
    question: 'text',
    first_name: 'text',
    input_data: 'jsonb',
    reading_result_id: 'text',
    reading_result_content: 'jsonb',
    status: 'text',
    credits_charged: 'bigint',
    voice_agent_used: 'boolean',
    voice_reactivation: 'boolean',
    voice_credits_charged: 'bigint',
    created_at: 'timestamptz',
    reading_revision: 'bigint',
    voice: 'jsonb',
    voice_session_status: 'text',
    voice_requested_at: 'timestamptz',
    voice_ends_at: 'timestamptz',
    voice_refund_owed: 'boolean',
  },
  admin_stats_users: {
    user_id: 'text',
    status: 'text',
    user_revision: 'bigint',
    credits_revision: 'bigint',
  },
} as const satisfies { [T in keyof ReadModels]?: { [C in keyof ReadModels[T]]-?: SqlType } };

export type BulkTable = keyof typeof BULK_COLUMNS;

/** A prepared write: its rows are encoded already, it only runs. */
export type Write = (db: ReadDb) => Promise<void>;

/** Rows per COPY: a few MB of text at most. */
const ROWS_PER_COPY = 5000;

const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Text as a field of COPY's text format: backslash, newline, return and tab escaped. */
const field = (text: string) =>
  SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text;

const integer = (value: unknown) => {
  if (typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'bigint') {
    return String(value);
  }
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return value;
  throw new TypeError(`not an integer: ${String(value)}`);
};

const instant = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/** Each type's field (null and undefined are `\N`). */
const encoders: Record<SqlType, (value: unknown) => string> = {
  text: (value) => field(String(value)),
  uuid: (value) => field(String(value)),
  jsonb: (value) => field(String(value)),
  bigint: integer,
  integer,
  boolean: (value) => (value ? 't' : 'f'),
  date: instant,
  timestamptz: instant,
};

/**
 * The insert of `rows` into `table` (of the transaction's `search_path`), encoded now and run
 * later, as COPY (`copyRows`): PostgreSQL takes rows that way several times faster than out of
 * a JSON document or arrays. The column map keeps the encoding to each column's type.
 */
export function prepareInsert<T extends BulkTable>(
  table: T,
  rows: readonly Insertable<ReadModels[T]>[],
): Write {
  const columns = Object.entries(BULK_COLUMNS[table]) as [string, SqlType][];
  const names = columns.map(([column]) => column);
  const encode = columns.map(([, type]) => encoders[type]);
  const copies: string[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_COPY) {
    const end = Math.min(rows.length, start + ROWS_PER_COPY);
    let text = '';
    for (let r = start; r < end; r++) {
      const row = rows[r] as Record<string, unknown>;
      for (let c = 0; c < names.length; c++) {
        const value = row[names[c]!];
        if (c > 0) text += '\t';
        if (value === null || value === undefined) {
          text += '\\N';
          continue;
        }
        try {
          text += encode[c]!(value);
        } catch (error) {
          throw new TypeError(`${table}.${names[c]}: ${(error as Error).message}`);
        }
      }
      text += '\n';
    }
    copies.push(text);
  }
  return async (db) => {
    for (const text of copies) await copyRows(table, names, text).execute(db);
  };
}
/** Each type's element of an array parameter (null and undefined are null). */
const elements: Record<SqlType, (value: unknown) => unknown> = {
  text: String,
  uuid: String,
  jsonb: String,
  bigint: integer,
  integer,
  boolean: Boolean,
  date: instant,
  timestamptz: instant,
};

/**
 * The statement that writes `rows` into `table` (of the transaction's `search_path`): a typed
 * array a column, unnested; null for no rows. That is one round trip where COPY takes two (its
 * data waits for the server's answer to the COPY), for the projector's batches of a few rows,
 * and it can be a part of a larger statement (`joinStatements`: the projector joins a batch's
 * writes). The replay's loads go by COPY (`prepareInsert`). With `replacing`, a row whose key is
 * stored replaces the stored row. Compiled as it is: Kysely's building of 36 columns' fragments
 * cost more than the round trip.
 */
export function writeRowsQuery<T extends BulkTable>(
  table: T,
  rows: readonly Insertable<ReadModels[T]>[],
  replacing?: keyof ReadModels[T] & string,
): CompiledQuery | null {
  if (rows.length === 0) return null;
  const columns = Object.entries(BULK_COLUMNS[table]) as [string, SqlType][];
  const arrays = columns.map(([column, type]) => {
    const element = elements[type];
    return rows.map((row) => {
      const value = (row as Record<string, unknown>)[column];
      if (value === null || value === undefined) return null;
      try {
        return element(value);
      } catch (error) {
        throw new TypeError(`${table}.${column}: ${(error as Error).message}`);
      }
    });
  });
  return CompiledQuery.raw(writeRowsSql(table, replacing), arrays);
}

const writeStatements = new Map<string, string>();

/** `writeRowsQuery`'s text for a table (and key), made once: `$n` is the n-th column's array. */
function writeRowsSql(table: BulkTable, replacing: string | undefined) {
  const key = `${table} ${replacing ?? ''}`;
  let text = writeStatements.get(key);
  if (!text) {
    const columns = Object.entries(BULK_COLUMNS[table]) as [string, SqlType][];
    const id = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    const replace = replacing
      ? ` ON CONFLICT (${id(replacing)}) DO UPDATE SET ${columns
          .filter(([column]) => column !== replacing)
          .map(([column]) => `${id(column)} = EXCLUDED.${id(column)}`)
          .join(', ')}`
      : '';
    text = `INSERT INTO ${id(table)} (${columns.map(([column]) => id(column)).join(', ')}) SELECT * FROM unnest(${arrays})${replace}`;
    writeStatements.set(key, text);
  }
  return text;
}

/**
 * Several statements as one (one round trip): each but the last as a data-modifying `WITH` part,
 * their `$n` parameters numbered on. They must be plain `INSERT`/`UPDATE`s (no `WITH` of their
 * own, no `$` but parameters) of different tables: the parts run on one snapshot and none sees
 * another's rows.
 */
export function joinStatements(queries: readonly CompiledQuery[]): CompiledQuery {
  if (queries.length === 1) return queries[0]!;
  const parameters: unknown[] = [];
  const texts = queries.map((query) => {
    const offset = parameters.length;
    parameters.push(...query.parameters);
    return query.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  });
  const last = texts.pop()!;
  const parts = texts.map((text, i) => `part${i} AS (${text})`).join(',\n');
  return CompiledQuery.raw(`WITH ${parts}\n${last}`, parameters);
}

/** Runs `queries` one after the other. */
export async function runStatements(db: ReadDb, queries: readonly CompiledQuery[]) {
  for (const query of queries) await db.executeQuery(query);
}
