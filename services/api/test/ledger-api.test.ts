import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres } from '@astra/event-store';
import { postgresReachable } from '@astra/event-store/testing';
import { allProjections, databaseFor, Projector, verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { eventCount, OPERATOR_SETTINGS, startTestServer, type TestServer } from './support.ts';

describe('the ledger over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('is healthy once migrated and projecting', async () => {
    const answer = await server.client().get('/api/health');
    expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('registers on first dev sign-in with the free allotment, once', async () => {
    const client = server.client();
    const first = await client.signIn('Grace@Example.com', 'Grace Hopper');
    expect(first).toMatchObject({
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
      remainingCredits: 10,
      totalCredits: 10,
      role: 'user',
      status: 'active',
      subscription: null,
    });
    const again = await server.client().signIn('grace@example.com');
    expect(again.id).toBe(first.id);
    expect(again.remainingCredits).toBe(10);

    const ledger = await client.get('/api/me/ledger');
    expect(ledger.status).toBe(200);
    expect(ledger.body).toMatchObject({ total: 2, page: 1, pageSize: 50 });
    expect(ledger.body.items.map((i: { type: string }) => i.type)).toEqual([
      'FreeCreditsGranted',
      'CreditAccountOpened',
    ]);
    expect(ledger.body.items[0]).toMatchObject({
      amount: 10,
      balanceAfter: 10,
      reason: 'Free welcome credits',
      actor: { kind: 'system' },
    });
  });

  it('answers 401 without a session and keeps admin routes to unlocked admins', async () => {
    const anonymous = server.client();
    expect((await anonymous.get('/api/me')).status).toBe(401);
    expect((await anonymous.get('/api/me')).body).toMatchObject({ error: 'unauthenticated' });

    const user = server.client();
    const me = await user.signIn('someone@example.com');
    expect(await user.post('/api/admin/unlock', { password: 'x' })).toMatchObject({
      status: 403,
      body: { error: 'admin_required', message: 'Access denied: Admin privileges required' },
    });
    expect(
      (await user.post(`/api/admin/users/${me.id}/credits`, { amount: 5, reason: 'no' })).status,
    ).toBe(403);

    const admin = server.client();
    await admin.signIn('admin@example.com');
    expect(
      (await admin.post(`/api/admin/users/${me.id}/credits`, { amount: 5, reason: 'x' })).body,
    ).toMatchObject({ error: 'admin_locked' });
    expect(await admin.post('/api/admin/unlock', { password: 'wrong' })).toMatchObject({
      status: 403,
      body: { error: 'incorrect_password', message: 'Incorrect password' },
    });
    expect(
      (await admin.post('/api/admin/unlock', { password: 'correct horse battery staple' })).status,
    ).toBe(200);
    expect(
      (await admin.post('/api/admin/users/no-such-user/credits', { amount: 5, reason: 'x' }))
        .status,
    ).toBe(404);
  });

  it('lets exactly 10 of 50 concurrent one-credit deductions through a balance of 10, with no 5xx', async () => {
    const target = await server.client().signIn('fifty@example.com');
    const admin = server.client();
    await admin.signInAsAdmin();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.post(`/api/admin/users/${target.id}/credits`, {
          amount: -1,
          reason: `Deduction ${i}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    expect(
      answers.filter((a) => a.status === 409).every((a) => a.body.error === 'insufficient_credits'),
    ).toBe(true);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);

    const history = await admin.get(`/api/admin/users/${target.id}/ledger`);
    expect(history.body.items[0].balanceAfter).toBe(0);
    expect(
      history.body.items.filter((i: { type: string }) => i.type === 'CreditsAdjusted'),
    ).toHaveLength(10);
    expect(
      history.body.items.every(
        (i: { actor: { kind: string } }) => i.actor.kind === 'system' || i.actor.kind === 'user',
      ),
    ).toBe(true);
    const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
    expect(report.differences).toEqual([]);
  });

  it('reads its own writes after every command', async () => {
    const admin = server.client();
    await admin.signInAsAdmin();
    // Another's account: an admin's own credits are another admin's to adjust.
    const member = server.client();
    const { id, remainingCredits: start } = await member.signIn('topped-up@example.com');
    for (let i = 1; i <= 15; i++) {
      const adjusted = await admin.post(`/api/admin/users/${id}/credits`, {
        amount: 1,
        reason: `Top-up ${i}`,
      });
      expect(adjusted.status).toBe(200);
      expect(adjusted.body.remainingCredits).toBe(start + i);
      expect((await admin.get(`/api/admin/users/${id}`)).body.balance).toBe(start + i);
      expect((await member.get('/api/me')).body.remainingCredits).toBe(start + i);
      expect((await member.get('/api/me/ledger')).body.items[0]).toMatchObject({
        reason: `Top-up ${i}`,
        balanceAfter: start + i,
      });
    }
  });

  it('answers 400 with the failing fields to bad bodies, and writes nothing', async () => {
    const admin = server.client();
    const me = await admin.signInAsAdmin();
    const before = await eventCount(server);
    const bad: [unknown, string[]][] = [
      [{ amount: 'ten', reason: 'x' }, ['amount']],
      [{ amount: 0, reason: 'x' }, ['amount']],
      [{ amount: 1.5, reason: 'x' }, ['amount']],
      [{ amount: 5, reason: '   ' }, ['reason']],
      [{ amount: 5 }, ['reason']],
      [{ amount: 5, reason: 'x', extra: true }, ['extra']],
      [{ amount: 2_000_000, reason: 'x' }, ['amount']],
      [[], ['(body)']],
    ];
    for (const [body, fields] of bad) {
      const answer = await admin.post(`/api/admin/users/${me.id}/credits`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toEqual(fields);
    }
    const malformed = await admin.post(`/api/admin/users/${me.id}/credits`, '{"amount": 5,');
    expect(malformed).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', message: 'The body is not valid JSON' },
    });
    expect(JSON.stringify(malformed.body)).not.toMatch(/at .*\.ts|stack/i);
    const badLogin = await server.client().post('/api/auth/dev-login', { email: 'not-an-email' });
    expect(badLogin.status).toBe(400);
    expect(badLogin.body.fields).toEqual([
      { field: 'email', message: 'must be an e-mail address' },
    ]);
    expect(await eventCount(server)).toBe(before);
  });

  it('replays the first answer for a repeated Idempotency-Key and applies nothing twice', async () => {
    const admin = server.client();
    await admin.signInAsAdmin();
    const me = await server.client().signIn('granted-once@example.com');
    const before = await eventCount(server);
    const headers = { 'Idempotency-Key': 'grant-42' };
    const first = await admin.post(
      `/api/admin/users/${me.id}/credits`,
      { amount: 7, reason: 'Once' },
      headers,
    );
    const second = await admin.post(
      `/api/admin/users/${me.id}/credits`,
      { amount: 7, reason: 'Once' },
      headers,
    );
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await eventCount(server)).toBe(before + 1);
    const reused = await admin.post(
      `/api/admin/users/${me.id}/credits`,
      { amount: 8, reason: 'Other' },
      headers,
    );
    expect(reused).toMatchObject({ status: 422, body: { error: 'idempotency_key_reused' } });
  });

  it('answers unknown API routes with the JSON error shape', async () => {
    expect(await server.client().get('/api/nothing-here')).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
  });

  it('refuses a state-changing request sent from another site', async () => {
    const answer = await server
      .client()
      .post(
        '/api/auth/dev-login',
        { email: 'x@example.com' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
    expect(answer).toMatchObject({ status: 403, body: { error: 'cross_site_request' } });
  });
});

describe('configuration', () => {
  it('refuses to start in production without a SESSION_SECRET, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET: is required when NODE_ENV=production/,
    );
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('turns the development sign-in off in production', async () => {
    const production = await startTestServer({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-long-enough-production-secret',
      STRIPE_SECRET_KEY: 'sk_test_unused',
      STRIPE_WEBHOOK_SECRET: 'whsec_unused',
      PUBLIC_URL: 'https://astra.example',
      DATA_KEY_SECRET: 'the-master-secret-of-the-data-keys',
      SMTP_URL: 'smtp://mail.astra-readings.test:587',
      ...OPERATOR_SETTINGS,
    });
    try {
      expect(
        (await production.client().post('/api/auth/dev-login', { email: 'a@example.com' })).status,
      ).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe.runIf(await postgresReachable())('with the projector in its own process', () => {
  it('still reads its own writes (the API waits on the projector’s checkpoint)', async () => {
    const server = await startTestServer({ PROJECTOR: 'external' }, 'postgres');
    const connection = await connectPostgres({ databaseUrl: server.databaseUrl! });
    const db = databaseFor(connection);
    const projector = new Projector(server.deps.ledger.store, db, allProjections);
    projector.start();
    try {
      const admin = server.client();
      await admin.signInAsAdmin();
      const member = server.client();
      const me = await member.signIn('elsewhere@example.com');
      for (let i = 1; i <= 5; i++) {
        await admin.post(`/api/admin/users/${me.id}/credits`, { amount: 2, reason: 'Elsewhere' });
        expect((await admin.get(`/api/admin/users/${me.id}`)).body.balance).toBe(10 + 2 * i);
        expect((await member.get('/api/me')).body.remainingCredits).toBe(10 + 2 * i);
      }
    } finally {
      await projector.stop();
      await db.destroy();
      await connection.close();
      await server.close();
    }
  });
});

describe('restarting on the same DATA_DIR (PGlite, the embedded default)', () => {
  it('keeps every balance and every ledger entry', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-restart-'));
    try {
      const before = new Map<string, { id: string; remainingCredits: number; entries: number }>();
      const first = await startTestServer({ DATA_DIR: dataDir }, 'pglite');
      try {
        const admin = first.client();
        await admin.signInAsAdmin();
        for (const [i, email] of [
          'one@example.com',
          'two@example.com',
          'three@example.com',
        ].entries()) {
          const user = first.client();
          const me = await user.signIn(email);
          await admin.post(`/api/admin/users/${me.id}/credits`, {
            amount: 5 * (i + 1) - 7,
            reason: 'Before restart',
          });
          const now = await user.get('/api/me');
          before.set(email, {
            id: me.id,
            remainingCredits: now.body.remainingCredits,
            entries: (await user.get('/api/me/ledger')).body.total,
          });
        }
      } finally {
        await first.close();
      }

      const second = await startTestServer({ DATA_DIR: dataDir }, 'pglite');
      try {
        for (const [email, was] of before) {
          const user = second.client();
          const me = await user.signIn(email);
          expect(me.id).toBe(was.id);
          expect(me.remainingCredits).toBe(was.remainingCredits);
          expect((await user.get('/api/me/ledger')).body.total).toBe(was.entries);
        }
        expect((await verifyLedger(second.deps.ledger.store, second.deps.db)).differences).toEqual(
          [],
        );
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
