import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectPostgres, PostgresEventStore } from '../src/index.ts';
import { readAllSql } from '../src/postgres/postgres-event-store.ts';
import { createThrowawayDatabase, postgresForTests } from '../src/testing.ts';
import { eventStoreContract } from './contract.ts';

const available = await postgresForTests();

describe.runIf(available)('PostgreSQL', () => {
  eventStoreContract('PostgreSQL adapter on a PostgreSQL server (pg)', async () => {
    const database = await createThrowawayDatabase();
    const connection = await connectPostgres({ databaseUrl: database.url });
    if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const store = await PostgresEventStore.open(connection.sql);
    return {
      store,
      appendInTransaction: async (stream, events, expected, hold, outcome) => {
        const client = await connection.pool.connect();
        try {
          await client.query('BEGIN');
          const inTransaction = new PostgresEventStore({
            query: async (text, params) => ({
              rows: (await client.query(text, params as unknown[])).rows,
            }),
            exec: async (script) => void (await client.query(script)),
          });
          try {
            await inTransaction.append(stream, events, { expected });
            await hold();
          } finally {
            await client.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
          }
        } finally {
          client.release();
        }
      },
      dispose: async () => {
        await store.close();
        await connection.close();
        await database.drop();
      },
    };
  });

  it('reads each page by walking the position index, even on a table never analyzed', async () => {
    const database = await createThrowawayDatabase();
    const connection = await connectPostgres({ databaseUrl: database.url });
    if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
    try {
      const store = await PostgresEventStore.open(connection.sql);
      // A freshly loaded or restored log: no statistics until autovacuum gets to it.
      await connection.sql.exec('ALTER TABLE events SET (autovacuum_enabled = false)');
      // A log many pages long, where sorting the rest of it for each page is what costs.
      const events = Array.from({ length: 60_000 }, (_, i) => ({ type: 'Counted', data: { i } }));
      await store.append(`bulk-${randomUUID()}`, events, { expected: 'no_stream' });
      const { rows: stats } = await connection.sql.query<{ reltuples: number }>(
        "SELECT reltuples FROM pg_class WHERE relname = 'events'",
      );
      expect(stats[0]!.reltuples).toBeLessThan(0); // never analyzed

      // The page sizes of subscribeAll (1,000) and of a rebuild (5,000).
      for (const limit of [100, 1000, 5000]) {
        const { rows } = await connection.sql.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ${readAllSql.replace('$1::bigint', '0').replace('$2', String(limit))}`,
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, `LIMIT ${limit}`).toMatch(/Index (Only )?Scan using events_pkey/);
        expect(plan, `LIMIT ${limit}`).not.toMatch(/Sort|Bitmap/);
      }

      let read = 0;
      for await (const _ of store.readAll({ batch: 5000 })) read++;
      expect(read).toBe(60_000);
      await store.close();
    } finally {
      await connection.close();
      await database.drop();
    }
  });
});
