import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EncryptingEventStore,
  KEY_CACHE_MS,
  Keyring,
  LogPredatesEncryptionError,
  type PersonalDataPolicy,
  type PostgresConnection,
  PostgresEventStore,
  type RecordedEvent,
  sealedOf,
  WrongDataKeySecretError,
} from '../src/index.ts';
import { postgresForTests, sqlEngines } from '../src/testing.ts';

const { engines: databases, closeLater, closeAll } = sqlEngines(await postgresForTests());
afterAll(closeAll);

const SECRET = 'a-data-key-secret-of-at-least-32-chars';

/** The store knows only this of the events: `UserRegistered`'s email and name are personal. */
const policy: PersonalDataPolicy = {
  fields: new Map([
    [
      'UserRegistered',
      new Map<string, unknown>([
        ['email', ''],
        ['fullName', null],
      ]),
    ],
  ]),
  subjectOf: (stream) => /^user-(.+)$/.exec(stream)?.[1] ?? null,
};

const registered = (email: string, fullName: string) => ({
  type: 'UserRegistered',
  data: { email, fullName, provider: 'dev' },
});

/** The stored rows of a stream, as a dump shows them. */
const rawData = async (connection: PostgresConnection, stream: string) =>
  (
    await connection.sql.query<{ data: Record<string, unknown> }>(
      'SELECT data FROM events WHERE stream_name = $1 ORDER BY revision',
      [stream],
    )
  ).rows.map((row) => row.data);

const readAll = async (store: EncryptingEventStore, stream: string) => {
  const events: RecordedEvent[] = [];
  for await (const event of store.readStream(stream)) events.push(event);
  return events;
};

describe.each(databases)('personal data on %s', (_name, runs, connect) => {
  const open = async (options: { secret?: string; now?: () => number } = {}) => {
    const connection = await connect();
    closeLater(() => connection.close());
    const log = await PostgresEventStore.open(connection.sql, { kind: connection.kind });
    const keyring = await Keyring.open(connection.sql, options.secret ?? SECRET, {
      logHasEvents: async () => false,
      now: options.now,
    });
    return { connection, log, keyring, store: new EncryptingEventStore(log, keyring, policy) };
  };

  /** A second keyring (another process) on the same database. */
  const reopen = (
    connection: PostgresConnection,
    options: { secret?: string; now?: () => number } = {},
  ) =>
    Keyring.open(connection.sql, options.secret ?? SECRET, {
      logHasEvents: async () => true,
      now: options.now,
    });

  it.runIf(runs)(
    'stores personal fields sealed, each under a fresh IV, and reads them back',
    async () => {
      const { connection, store } = await open();
      await store.append('user-1', [registered('ana@example.com', 'Ana Lima')], {
        expected: 'any',
      });
      await store.append('user-1', [registered('ana@example.com', 'Ana Lima')], {
        expected: 'any',
      });
      const [first, second] = await rawData(connection, 'user-1');
      expect(JSON.stringify([first, second])).not.toMatch(/ana@example|Ana Lima/);
      expect(first).toEqual({
        provider: 'dev',
        $pd: { s: '1', f: ['email', 'fullName'], v: expect.any(String) },
      });
      // The same values twice: two ciphertexts.
      expect(sealedOf(first)!.v).not.toBe(sealedOf(second)!.v);
      expect(first!.provider).toBe('dev');
      const events = await readAll(store, 'user-1');
      expect(events.map((e) => e.data)).toEqual([
        { email: 'ana@example.com', fullName: 'Ana Lima', provider: 'dev' },
        { email: 'ana@example.com', fullName: 'Ana Lima', provider: 'dev' },
      ]);
      expect(events.some((e) => e.erased)).toBe(false);
    },
  );

  it.runIf(runs)('refuses a tampered ciphertext, and a value moved to another field', async () => {
    const { connection, store } = await open();
    await store.append('user-2', [registered('bo@example.com', 'Bo Berg')], { expected: 'any' });
    const [data] = await rawData(connection, 'user-2');
    const sealed = sealedOf(data)!;
    const bytes = Buffer.from(sealed.v!, 'base64');
    bytes[14]! ^= 1;
    const tampered = { ...data, $pd: { ...sealed, v: bytes.toString('base64') } };
    await connection.sql.query('UPDATE events SET data = $1::jsonb WHERE stream_name = $2', [
      JSON.stringify(tampered),
      'user-2',
    ]);
    await expect(readAll(store, 'user-2')).rejects.toThrow(/authenticate/);
    // The fields' names are authenticated too: a value claimed for another field is refused.
    const moved = { ...data, $pd: { ...sealed, f: ['fullName', 'email'] } };
    await connection.sql.query('UPDATE events SET data = $1::jsonb WHERE stream_name = $2', [
      JSON.stringify(moved),
      'user-2',
    ]);
    await expect(readAll(store, 'user-2')).rejects.toThrow(/authenticate/);
  });

  it.runIf(runs)(
    'a destroyed key reads as erased, here at once and elsewhere within the cache time',
    async () => {
      let clock = 1_000_000;
      const now = () => clock;
      const { connection, log, store, keyring } = await open({ now });
      await store.append('user-3', [registered('cy@example.com', 'Cy Dahl')], { expected: 'any' });
      await store.append('user-4', [registered('di@example.com', 'Di Eke')], { expected: 'any' });
      // Another process read the key before the erasure: it keeps it until its cache expires.
      const elsewhere = new EncryptingEventStore(log, await reopen(connection, { now }), policy);
      expect((await readAll(elsewhere, 'user-3'))[0]!.data).toMatchObject({
        email: 'cy@example.com',
      });

      await keyring.destroy('3');
      expect(await keyring.isDestroyed('3')).toBe(true);
      const [erased] = await readAll(store, 'user-3');
      expect(erased!.data).toEqual({ email: '', fullName: null, provider: 'dev' });
      expect(erased!.erased).toBe(true);
      expect((await readAll(store, 'user-4'))[0]!.data).toMatchObject({ email: 'di@example.com' });

      expect((await readAll(elsewhere, 'user-3'))[0]!.erased).toBeUndefined();
      clock += KEY_CACHE_MS + 1;
      expect((await readAll(elsewhere, 'user-3'))[0]!.erased).toBe(true);

      // Nothing new is written under a destroyed key: the value is not stored at all.
      await store.append('user-3', [registered('cy@example.com', 'Cy Dahl')], { expected: 'any' });
      const raw = await rawData(connection, 'user-3');
      expect(raw[1]).toEqual({ provider: 'dev', $pd: { s: '3', f: ['email', 'fullName'] } });
      expect(JSON.stringify(raw)).not.toContain('cy@example');
      expect((await readAll(store, 'user-3'))[1]!.erased).toBe(true);
    },
  );

  it.runIf(runs)(
    'reads the log page by page, with the keys of a page read at once, erased ones included',
    async () => {
      const { connection, log, store, keyring } = await open();
      const people = ['p1', 'p2', 'p3', 'p4', 'p5'];
      for (const id of people) {
        await store.append(`user-${id}`, [registered(`${id}@example.com`, `Name ${id}`)], {
          expected: 'no_stream',
        });
      }
      await keyring.destroy('p3');
      // Another process, nothing cached: pages of two events, each page's keys in one query.
      const elsewhere = new EncryptingEventStore(log, await reopen(connection), policy);
      const read: RecordedEvent[] = [];
      for await (const event of elsewhere.readAll({ batch: 2 })) {
        if (event.stream.startsWith('user-p')) read.push(event);
      }
      expect(read.map((e) => [e.stream, (e.data as { email: string }).email, e.erased])).toEqual(
        people.map((id) => [
          `user-${id}`,
          id === 'p3' ? '' : `${id}@example.com`,
          id === 'p3' ? true : undefined,
        ]),
      );
    },
  );

  it.runIf(runs)('refuses a wrong secret, and a log written before encryption', async () => {
    const { connection, log } = await open();
    await expect(
      reopen(connection, { secret: 'another-secret-of-at-least-32-chars' }),
    ).rejects.toThrow(WrongDataKeySecretError);
    await log.append('user-5', [registered('ed@example.com', 'Ed Fox')], { expected: 'any' });
    await connection.sql.exec('DELETE FROM data_keys');
    const predates = { logHasEvents: async () => true };
    await expect(Keyring.open(connection.sql, SECRET, predates)).rejects.toThrow(
      LogPredatesEncryptionError,
    );
    // `privacy:migrate` opens it; until it has finished, the app does not start on the log.
    const migrating = await Keyring.open(connection.sql, SECRET, { ...predates, migrating: true });
    await expect(Keyring.open(connection.sql, SECRET, predates)).rejects.toThrow(
      LogPredatesEncryptionError,
    );
    await migrating.finishMigration();
    await expect(Keyring.open(connection.sql, SECRET, predates)).resolves.toBeInstanceOf(Keyring);
  });

  it.runIf(runs)(
    "reads a person's events after their PersonalDataErased as erased, with their key cached",
    async () => {
      const erasing: PersonalDataPolicy = {
        ...policy,
        erasedSubjectOf: (event) =>
          event.type === 'PersonalDataErased' ? event.stream.slice('user-'.length) : null,
      };
      const { connection, log, store, keyring } = await open();
      await store.append('user-7', [registered('gu@example.com', 'Gu Hal')], { expected: 'any' });
      // Two other processes hold the key: one writes with it after the erasure (its cache is
      // young), the other reads the log on.
      const writer = new EncryptingEventStore(log, await reopen(connection), erasing);
      const reader = new EncryptingEventStore(log, await reopen(connection), erasing);
      await readAll(writer, 'user-7');
      expect((await readAll(reader, 'user-7'))[0]!.data).toMatchObject({ email: 'gu@example.com' });
      await keyring.destroy('7');
      await store.append('user-7', [{ type: 'PersonalDataErased', data: {} }], {
        expected: 'any',
      });
      await writer.append('user-7', [registered('gu@example.com', 'Gu Hal')], { expected: 'any' });
      // The reader still opens what came before the erasure (its cache is young), but the
      // erasure event makes it forget the key: the late event brings nothing back.
      const seen: RecordedEvent[] = [];
      for await (const event of reader.readAll({ batch: 10 })) {
        if (event.stream === 'user-7') seen.push(event);
      }
      expect(seen.map((e) => [e.type, (e.data as { email?: string }).email, e.erased])).toEqual([
        ['UserRegistered', 'gu@example.com', undefined],
        ['PersonalDataErased', undefined, undefined],
        ['UserRegistered', '', true],
      ]);
    },
  );

  it.runIf(runs)('rotation: the new secret opens the keys, the old one is refused', async () => {
    const { connection, log, store, keyring } = await open();
    await store.append('user-6', [registered('fa@example.com', 'Fa Gil')], { expected: 'any' });
    const mailbox = keyring.mailboxId('fa@example.com');
    const next = 'the-next-secret-of-at-least-32-chars!';
    await store.append('user-8', [registered('ho@example.com', 'Ho Ivo')], { expected: 'any' });
    await keyring.destroy('8');
    expect(await keyring.rotate(next)).toBe(2);
    expect(await keyring.isDestroyed('8')).toBe(true);
    await expect(reopen(connection)).rejects.toThrow(WrongDataKeySecretError);
    const rotated = await reopen(connection, { secret: next });
    const reader = new EncryptingEventStore(log, rotated, policy);
    expect((await readAll(reader, 'user-6'))[0]!.data).toMatchObject({ email: 'fa@example.com' });
    // The mailbox streams keep their names.
    expect(rotated.mailboxId('fa@example.com')).toBe(mailbox);
  });

  it.runIf(runs)(
    'names mailboxes by a keyed HMAC, not a plain SHA-256 of the address',
    async () => {
      const { keyring } = await open();
      const { keyring: other } = await open();
      const address = 'ana@example.com';
      const sha256 = createHash('sha256').update(address).digest('hex');
      expect(keyring.mailboxId(address)).toMatch(/^[0-9a-f]{64}$/);
      expect(keyring.mailboxId(address)).not.toBe(sha256);
      expect(keyring.mailboxId(address)).toBe(keyring.mailboxId(address));
      // Another database's key: another name (a dictionary built without the key finds nothing).
      expect(other.mailboxId(address)).not.toBe(keyring.mailboxId(address));
    },
  );
});
