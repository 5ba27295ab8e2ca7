import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PostgresConnection } from '@astra/event-store';
import {
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryResult,
  sql,
  type UnknownRow,
} from 'kysely';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { ReadModels } from './schema.ts';

/** Read models live in their own schema, so a rebuild can build a fresh one and swap it in. */
export const READ_SCHEMA = 'read';

/**
 * `COPY table (columns) FROM STDIN` with the rows (COPY's text format) as its one parameter. Not
 * SQL the server takes: the connections of `databaseFor` recognise it and run a COPY, so it runs
 * through Kysely like any statement (in its transaction, after its `search_path`).
 */
export const copyRows = (table: string, columns: readonly string[], rows: string) =>
  sql`COPY ${sql.id(table)} (${sql.join(columns.map((column) => sql.id(column)))}) FROM STDIN ${rows}`;

const COPY_ROWS = /^COPY ([^;]+) FROM STDIN \$1$/s;

/** A `pg` client that runs `copyRows` statements as COPY (through `pg-copy-streams`). */
const copyingClient = (client: PostgresPoolClient): PostgresPoolClient =>
  new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (text: string, parameters?: readonly unknown[]) => {
        const copy = typeof text === 'string' ? COPY_ROWS.exec(text) : null;
        if (!copy) return target.query(text, parameters as unknown[]);
        const stream = (
          target as unknown as { query: (s: unknown) => NodeJS.WritableStream }
        ).query(copyFromStdin(`COPY ${copy[1]} FROM STDIN`)) as ReturnType<typeof copyFromStdin>;
        await pipeline(Readable.from([String(parameters?.[0] ?? '')]), stream);
        return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
      };
    },
  });

/** Serves Kysely's Postgres driver from PGlite: a "connection" holds the shared mutex. */
const pglitePool = (connection: Extract<PostgresConnection, { kind: 'pglite' }>): PostgresPool => ({
  connect: async () => {
    const release = await connection.mutex.acquire();
    return {
      query: async (text: string, parameters: readonly unknown[]) => {
        // A `copyRows`: PGlite reads COPY's input from a blob.
        const copy = COPY_ROWS.exec(text);
        const result = copy
          ? await connection.pglite.query(`COPY ${copy[1]} FROM '/dev/blob'`, [], {
              blob: new Blob([String(parameters[0] ?? '')]),
            })
          : await connection.pglite.query(text, parameters as unknown[]);
        const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase();
        return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
      },
      release,
    } as never;
  },
  end: async () => {},
});

/** A Kysely over the database of the connection (the caller closes the connection). */
export function databaseFor(connection: PostgresConnection): Kysely<unknown> {
  const pool = connection.kind === 'postgres' ? connection.pool : pglitePool(connection);
  return databaseOver(async () =>
    connection.kind === 'postgres' ? copyingClient(await pool.connect()) : pool.connect(),
  );
}

/**
 * A Kysely whose every connection comes from `connect`, which may pick the database each time
 * (a read replica or the primary). Ending the pools is their owner's job, not Kysely's.
 */
export const databaseOver = (connect: () => Promise<PostgresPoolClient>): Kysely<unknown> =>
  new Kysely({ dialect: new PostgresDialect({ pool: { connect, end: async () => {} } }) });

/** The credit columns of the read models (`bigint` in SQL since migration 005). */
export const CREDIT_COLUMNS = [
  'remaining_credits',
  'credits',
  'credits_per_month',
  'credits_rollover_remaining',
  'subscription_credits',
  'free_credits',
  'promotional_credits',
  'purchased_credits',
  'amount',
  'balance_after',
  'credits_after',
  'credits_charged',
  'voice_credits_charged',
  'total_users',
  'active_users',
  'blocked_users',
  'deleted_users',
  'total_credits_used',
  'total_credits_granted',
] as const;

const INTEGER = /^-?\d+$/;

/**
 * A credit column's `bigint` (a string from `pg` and PGlite) as a number, refusing any value a
 * number cannot hold exactly rather than rounding it. The ledger's ceiling (a billion credits an
 * account) keeps every balance, and sums over millions of accounts, far inside 2^53.
 */
export function creditNumber(column: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) {
    throw new RangeError(`${column} is ${value}: beyond what a number holds exactly (2^53)`);
  }
  return number;
}

/** Turns the credit columns of every row read into numbers: the API's shapes stay numbers. */
const creditNumbers: KyselyPlugin = {
  transformQuery: (args) => args.node,
  async transformResult(args): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows as Record<string, unknown>[];
    if (rows.length === 0) return args.result;
    const present = CREDIT_COLUMNS.filter((column) => column in rows[0]!);
    if (present.length === 0) return args.result;
    for (const row of rows) {
      for (const column of present) {
        const value = row[column];
        if (typeof value === 'string' && INTEGER.test(value)) {
          row[column] = creditNumber(column, value);
        }
      }
    }
    return args.result;
  },
};

/**
 * The read models, in `schema` (the live one unless a rebuild is filling another). Credit
 * columns come back as numbers (`creditNumber`).
 */
export const readModels = (db: Kysely<unknown>, schema = READ_SCHEMA) =>
  db.withSchema(schema).withPlugin(creditNumbers) as unknown as Kysely<ReadModels>;

export type ReadDb = Kysely<ReadModels>;
