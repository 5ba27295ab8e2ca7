import { afterAll } from 'vitest';
import {
  connectPostgres,
  type PostgresConnection,
  PostgresEventStore,
  type SqlClient,
} from '../src/index.ts';
import { pgliteTemplate } from '../src/testing.ts';
import { eventStoreContract } from './contract.ts';

// Starting PGlite takes seconds, so the suite shares one instance; its tests use their own streams.
let shared: Promise<PostgresConnection> | undefined;
afterAll(async () => (await shared)?.close());

eventStoreContract(
  'PostgreSQL adapter on PGlite (embedded)',
  async () => {
    shared ??= pgliteTemplate().then((template) => connectPostgres({ dataDir: null, template }));
    const connection = await shared;
    if (connection.kind !== 'pglite') throw new Error('expected PGlite');
    const store = await PostgresEventStore.open(connection.sql, { kind: 'pglite' });
    const { pglite, mutex } = connection;
    // Inside the held mutex the single connection is ours: statements go to PGlite directly.
    const direct: SqlClient = {
      query: async (text, params) => ({
        rows: (await pglite.query(text, params as unknown[])).rows as never[],
      }),
      exec: async (script) => void (await pglite.exec(script)),
    };
    return {
      store,
      appendInTransaction: (stream, events, expected, hold, outcome) =>
        mutex.runExclusive(async () => {
          await pglite.exec('BEGIN');
          try {
            await new PostgresEventStore(direct).append(stream, events, { expected });
            await hold();
          } finally {
            await pglite.exec(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
          }
        }),
      dispose: () => store.close(),
    };
  },
  // PGlite runs one transaction at a time, so holding one open only adds wall time.
  { maxHoldMs: 0, elides: true },
);
