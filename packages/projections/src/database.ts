import type { PostgresConnection } from '@astra/event-store';
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
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

/** The read models, in `schema` (the live one unless a rebuild is filling another). */
export const readModels = (db: Kysely<unknown>, schema = READ_SCHEMA) =>
  db.withSchema(schema) as unknown as Kysely<ReadModels>;

export type ReadDb = Kysely<ReadModels>;
