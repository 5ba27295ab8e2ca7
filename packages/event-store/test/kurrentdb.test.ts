import { afterAll, describe, expect, it } from 'vitest';
import {
  EncryptingEventStore,
  Keyring,
  type PersonalDataPolicy,
  type RecordedEvent,
  sealedOf,
} from '../src/index.ts';
import { KurrentDbEventStore } from '../src/kurrentdb/kurrentdb-event-store.ts';
import { kurrentDbForTests, sqlEngines } from '../src/testing.ts';
import { eventStoreContract } from './contract.ts';

/**
 * The shared contract suite against a real KurrentDB: `KURRENTDB_CONNECTION_STRING`, else a
 * container where a Docker engine answers, else skipped with one line (see `kurrentDbForTests`).
 * The adapter's logic is also checked against a fake client in `kurrentdb-adapter.test.ts`;
 * only this file proves it against the server. CI runs it where Docker exists
 * (`.github/workflows/kurrentdb.yml`).
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

  /**
   * "Forget on request" with the log on KurrentDB: the keys live in the SQL database, the sealed
   * fields in KurrentDB; the log itself never holds them in clear, and a destroyed key erases.
   */
  describe('personal data sealed in KurrentDB', () => {
    const { engines, closeLater, closeAll } = sqlEngines(false);
    afterAll(closeAll);
    const [, , connectKeys] = engines.find(([name]) => name === 'PGlite')!;
    const policy: PersonalDataPolicy = {
      fields: new Map([['UserRegistered', new Map<string, unknown>([['email', '']])]]),
      subjectOf: (stream) => /^user-(.+)$/.exec(stream)?.[1] ?? null,
    };
    const events = async (
      store: { readStream(s: string): AsyncIterable<RecordedEvent> },
      s: string,
    ) => {
      const read: RecordedEvent[] = [];
      for await (const event of store.readStream(s)) read.push(event);
      return read;
    };

    it('stores the fields sealed, reads them back, and reads them erased once the key is destroyed', async () => {
      const keys = await connectKeys();
      closeLater(() => keys.close());
      const log = KurrentDbEventStore.connect(kurrentdb.url);
      closeLater(() => log.close());
      const keyring = await Keyring.open(keys.sql, 'a-data-key-secret-of-at-least-32-chars', {
        logHasEvents: async () => false,
      });
      const store = new EncryptingEventStore(log, keyring, policy);
      const subject = crypto.randomUUID();
      const stream = `user-${subject}`;
      await store.append(
        stream,
        [{ type: 'UserRegistered', data: { email: 'kim@example.com', provider: 'dev' } }],
        { expected: 'no_stream' },
      );

      const [raw] = await events(log, stream);
      expect(JSON.stringify(raw!.data)).not.toContain('kim@example.com');
      expect(sealedOf(raw!.data)?.f).toEqual(['email']);
      expect((await events(store, stream))[0]!.data).toMatchObject({ email: 'kim@example.com' });

      await keyring.destroy(subject);
      const [erased] = await events(store, stream);
      expect(erased!.erased).toBe(true);
      expect(erased!.data).toMatchObject({ email: '', provider: 'dev' });
    });
  });
});
