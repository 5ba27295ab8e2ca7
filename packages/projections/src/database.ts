import type { PostgresConnection } from '@astra/event-store';
import {
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type PostgresPool,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
import type { ReadModels } from './schema.ts';

/** Read models live in their own schema, so a rebuild can build a fresh one and swap it in. */
export const READ_SCHEMA = 'read';

/** Serves Kysely's Postgres driver from PGlite: a "connection" holds the shared mutex. */
const pglitePool = (connection: Extract<PostgresConnection, { kind: 'pglite' }>): PostgresPool => ({
  connect: async () => {
    const release = await connection.mutex.acquire();
    return {
      query: async (text: string, parameters: readonly unknown[]) => {
        const result = await connection.pglite.query(text, parameters as unknown[]);
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
  // Ending the pool is the connection's job, not Kysely's.
  const borrowed: PostgresPool = { connect: () => pool.connect(), end: async () => {} };
  return new Kysely({ dialect: new PostgresDialect({ pool: borrowed }) });
}

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
