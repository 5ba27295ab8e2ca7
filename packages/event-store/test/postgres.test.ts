import { describe } from 'vitest';
import { connectPostgres, PostgresEventStore } from '../src/index.ts';
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
});
