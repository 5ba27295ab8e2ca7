import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, postgresReachable } from '@astra/event-store/testing';
import { streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { startTestServer, type TestServer } from './support.ts';

/** A real 1×1 PNG. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Different pictures: the same PNG with a different trailing comment after its end. */
const pictureNumber = (n: number) => Buffer.concat([tinyPng, Buffer.from(`#${n}`)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The events of a stream, straight from the event store. */
async function eventsOf(server: TestServer, stream: string) {
  const events: { type: string; data: any; metadata: any }[] = [];
  for await (const event of server.deps.ledger.store.readStream(stream)) {
    events.push({ type: event.type, data: event.data, metadata: event.metadata });
  }
  return events;
}

describe('roles from ADMIN_EMAILS follow the list; roles an admin gave stay', () => {
  // Two servers in turn on one database, as a restart with another configuration.
  let dataDir: string;
  let storage: Record<string, string>;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'astra-roles-'));
    storage = { DATA_DIR: dataDir };
    if (await postgresReachable()) {
      const database = await createThrowawayDatabase();
      storage.DATABASE_URL = database.url;
      drop = () => database.drop();
    }
  });
  afterAll(async () => {
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A server on the shared database with this ADMIN_EMAILS; runs `work`, then stops. */
  async function withServer(adminEmails: string, work: (server: TestServer) => Promise<void>) {
    const server = await startTestServer({ ...storage, ADMIN_EMAILS: adminEmails }, 'pglite');
    try {
      await work(server);
    } finally {
      await server.close();
    }
  }

  it('takes back a role from ADMIN_EMAILS at the next sign-in once the address is no longer listed', async () => {
    let bossId = '';
    let keptId = '';
    await withServer('boss@example.com,kept@example.com', async (server) => {
      const boss = server.client();
      bossId = (await boss.signIn('boss@example.com')).id;
      expect((await boss.get('/api/me')).body.role).toBe('admin');
      keptId = (await server.client().signIn('kept@example.com')).id;
      // An admin makes the same choice: from now on the role is the admin's, not the list's.
      await server.deps.ledger.handle(
        'user',
        keptId,
        { type: 'ChangeRole', role: 'admin', source: 'admin', adminId: bossId },
        { ...systemContext(), actor: { kind: 'user', userId: bossId, role: 'admin' } },
      );
      // And one whose role an admin gave although the list never named it.
      const given = (await server.client().signIn('given@example.com')).id;
      await server.deps.ledger.handle(
        'user',
        given,
        { type: 'ChangeRole', role: 'admin', source: 'admin', adminId: bossId },
        { ...systemContext(), actor: { kind: 'user', userId: bossId, role: 'admin' } },
      );
    });

    await withServer('someone-else@example.com', async (server) => {
      const boss = server.client();
      expect((await boss.signIn('boss@example.com')).id).toBe(bossId);
      expect((await boss.get('/api/me')).body.role).toBe('user');
      expect((await eventsOf(server, streams.user(bossId))).map((e) => [e.type, e.data])).toEqual([
        ['UserRegistered', expect.objectContaining({ email: 'boss@example.com' })],
        ['UserRoleChanged', { role: 'admin', source: 'admin_emails' }],
        ['UserRoleChanged', { role: 'user', source: 'admin_emails' }],
      ]);
      // Signing in again changes nothing more.
      await boss.signIn('boss@example.com');
      expect(await eventsOf(server, streams.user(bossId))).toHaveLength(3);

      const kept = server.client();
      expect((await kept.signIn('kept@example.com')).id).toBe(keptId);
      expect((await kept.get('/api/me')).body.role).toBe('admin');
      const given = server.client();
      await given.signIn('given@example.com');
      expect((await given.get('/api/me')).body.role).toBe('admin');
    });

    // Listed again: the list gives the role back.
    await withServer('boss@example.com', async (server) => {
      const boss = server.client();
      await boss.signIn('boss@example.com');
      expect((await boss.get('/api/me')).body.role).toBe('admin');
    });
  });
});

describe('accounts under concurrency, and the free allotment per mailbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('lets ten simultaneous first sign-ins of one address all in, as one user with one free allotment', async () => {
    const email = 'stampede@example.com';
    const clients = Array.from({ length: 10 }, () => server.client());
    const answers = await Promise.all(
      clients.map((client) => client.post('/api/auth/dev-login', { email })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    const [userId] = [...ids] as [string];
    for (const answer of answers) {
      expect(answer.body).toMatchObject({ email, remainingCredits: 10, totalCredits: 10 });
    }
    const credits = await eventsOf(server, streams.credits(userId));
    expect(credits.map((event) => event.type)).toEqual([
      'CreditAccountOpened',
      'FreeCreditsGranted',
    ]);
    expect(
      await eventsOf(server, streams.freeAllotment(server.deps.ledger.mailboxId(email))),
    ).toHaveLength(1);
    expect(await eventsOf(server, streams.user(userId))).toHaveLength(1);
    for (const client of clients) expect((await client.get('/api/me')).body.id).toBe(userId);
  });

  it('gives the free credits once per mailbox: plus tags and Gmail dots are the same mailbox', async () => {
    const first = await server.client().signIn('ab@gmail.com');
    expect(first.remainingCredits).toBe(10);
    const client = server.client();
    const again = await client.signIn('a.b+promo@gmail.com');
    expect(again.id).not.toBe(first.id);
    expect(again.remainingCredits).toBe(0);
    // The address shown and stored stays as given.
    expect((await client.get('/api/me')).body.email).toBe('a.b+promo@gmail.com');
    expect((await server.client().signIn('A.B@googlemail.com')).remainingCredits).toBe(0);
    expect((await server.client().signIn('ab+x@example.com')).remainingCredits).toBe(10);
    expect((await server.client().signIn('ab+y@example.com')).remainingCredits).toBe(0);
    // Dots count outside Gmail.
    expect((await server.client().signIn('a.b@example.com')).remainingCredits).toBe(10);
  });

  it('keeps the claims made before normalization (keyed by the lower-cased address)', async () => {
    // A claim as sign-in made it before: on the stream of the whole lower-cased address.
    await server.deps.ledger.handle(
      'freeAllotment',
      'old.timer+2025@gmail.com',
      { type: 'ClaimFreeAllotment', userId: 'legacy-user', amount: 10 },
      systemContext(),
    );
    // The same spelling again (say, after that account was deleted): nothing.
    expect((await server.client().signIn('Old.Timer+2025@gmail.com')).remainingCredits).toBe(0);
    // Another spelling of the mailbox, now that the old claim was seen: nothing either.
    expect((await server.client().signIn('oldtimer@gmail.com')).remainingCredits).toBe(0);
  });

  it('serves the avatar the profile names, whatever the order of simultaneous uploads', async () => {
    const client = server.client();
    await client.signIn('shutterbug@example.com');
    for (let round = 0; round < 3; round++) {
      const pictures = Array.from({ length: 8 }, (_, i) => pictureNumber(round * 100 + i));
      const answers = await Promise.all(
        pictures.map((picture) => client.put('/api/me/avatar', picture)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      const me = (await client.get('/api/me')).body;
      const served = await fetch(`${server.url}${me.avatarUrl}`);
      expect(served.status, `round ${round}: ${me.avatarUrl}`).toBe(200);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(pictures.map(sha256)).toContain(sha256(bytes));
      expect(me.avatarUrl).toBe(`/api/avatars/${sha256(bytes)}`);
    }
    // Once the uploads are over, the next one leaves only the picture in use.
    expect((await client.put('/api/me/avatar', pictureNumber(999))).status).toBe(200);
    const owned = await server.deps.appDb
      .selectFrom('avatar_owners')
      .select('avatar_id')
      .where('user_id', '=', (await client.get('/api/me')).body.id)
      .execute();
    expect(owned).toHaveLength(1);
  });
});
