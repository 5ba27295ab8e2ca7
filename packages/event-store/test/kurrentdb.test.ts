import { afterAll, describe } from 'vitest';
import { KurrentDbEventStore } from '../src/kurrentdb/kurrentdb-event-store.ts';
import { kurrentDbForTests } from '../src/testing.ts';
import { eventStoreContract } from './contract.ts';

/**
 * The shared contract suite against a real KurrentDB: `KURRENTDB_CONNECTION_STRING`, else a
 * container where a Docker engine answers, else skipped with one line (see `kurrentDbForTests`).
 * The adapter's logic is also checked against a fake client in `kurrentdb-adapter.test.ts`;
 * only this file proves it against the server.
 */
const kurrentdb = await kurrentDbForTests();
afterAll(async () => kurrentdb?.stop());

describe.runIf(kurrentdb !== null)('KurrentDB', () => {
  if (!kurrentdb) return;
  eventStoreContract(
    `KurrentDB adapter at ${kurrentdb.url}`,
    async () => {
      const store = KurrentDbEventStore.connect(kurrentdb.url);
      return { store, dispose: () => store.close() };
    },
    { maxHoldMs: 2 },
  );
});
