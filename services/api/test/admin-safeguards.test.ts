/** What an admin cannot do: adjust credits on a balance they did not see or on their own account, leave no admin. */
import { randomUUID } from 'node:crypto';
import { ADMINS_STREAM, isDomainError, streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandContext, Ledger, systemContext } from '../src/ledger/ledger.ts';
import { changeAdminRegistry } from '../src/modules/admin/registry.ts';
import { eventsOf, lifePath, token } from './adminFixtures.ts';
import { type Client, startTestServer, type TestServer } from './support.ts';

const asAdmin = (userId: string): CommandContext => ({
  actor: { kind: 'user', userId, role: 'admin' },
  correlationId: randomUUID(),
});

describe('admin credit adjustments: the balance the admin saw, never their own account', () => {
  let server: TestServer;
  let admin: Client;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = server.client();
    adminId = (await admin.signInAsAdmin()).id;
  });
  afterAll(() => server?.close());

  const credits = (id: string) => `/api/admin/users/${id}/credits`;
  const balanceOf = async (id: string) =>
    (await server.deps.ledger.load('credits', id)).state.balance;
  const adjustments = async (id: string) =>
    (await eventsOf(server, streams.credits(id))).filter((e) => e.type === 'CreditsAdjusted');

  it('applies an adjustment made on the balance the admin saw; refuses it 409 balance_changed once the balance moved', async () => {
    const member = server.client();
    const { id, remainingCredits: seen } = await member.signIn(`${token()}@example.com`);
    expect(
      await admin.post(credits(id), { amount: 5, reason: 'Goodwill', expectedBalance: seen }),
    ).toMatchObject({ status: 200, body: { remainingCredits: seen + 5 } });

    // The balance moves (a reading) while a second admin view still shows seen + 5.
    expect((await member.post('/api/readings/life-path', lifePath)).status).toBe(201);
    const now = await balanceOf(id);
    expect(now).toBeLessThan(seen + 5);
    const stale = await admin.post(credits(id), {
      amount: -2,
      reason: 'Correction',
      expectedBalance: seen + 5,
    });
    expect(stale).toMatchObject({
      status: 409,
      body: {
        error: 'balance_changed',
        message: `The balance changed: it is ${now} credits now, not ${seen + 5}. Check the adjustment and try again.`,
        expectedBalance: seen + 5,
        balance: now,
      },
    });
    expect(await balanceOf(id)).toBe(now);
    expect(await adjustments(id)).toHaveLength(1);

    // Asked again on the fresh balance, it goes through.
    expect(
      await admin.post(credits(id), { amount: -2, reason: 'Correction', expectedBalance: now }),
    ).toMatchObject({ status: 200, body: { remainingCredits: now - 2 } });
    // Outside tools may leave it out: no check then.
    expect(
      (await admin.post(credits(id), { amount: 1, reason: 'From a script' })).body,
    ).toMatchObject({ remainingCredits: now - 1 });
    expect(await adjustments(id)).toHaveLength(3);
    // Not a balance: refused as a field of the request.
    for (const expectedBalance of [-1, 1.5, '12']) {
      const bad = await admin.post(credits(id), { amount: 1, reason: 'x', expectedBalance });
      expect(bad.status, JSON.stringify(expectedBalance)).toBe(400);
      expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['expectedBalance']);
    }
  });

  it('a retried adjustment (same Idempotency-Key) answers as applied, though its balance is gone', async () => {
    const { id, remainingCredits: seen } = await server.client().signIn(`${token()}@example.com`);
    const body = { amount: 3, reason: 'Retried', expectedBalance: seen };
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await admin.post(credits(id), body, key);
    expect(first).toMatchObject({ status: 200, body: { remainingCredits: seen + 3 } });
    const again = await admin.post(credits(id), body, key);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(await adjustments(id)).toHaveLength(1);
    expect(await balanceOf(id)).toBe(seen + 3);
  });

  it("refuses an admin's adjustment of their own credits (409 self_action, as the other self-refusals); another admin may make it", async () => {
    const before = await balanceOf(adminId);
    for (const body of [
      { amount: 1000, reason: 'self-grant test' },
      { amount: 1000, reason: 'self-grant test', expectedBalance: before },
      { amount: -1, reason: 'self-deduction' },
    ]) {
      expect(await admin.post(credits(adminId), body)).toMatchObject({
        status: 409,
        body: {
          error: 'self_action',
          message: 'You cannot adjust your own credits: another admin must do it',
        },
      });
    }
    expect(await balanceOf(adminId)).toBe(before);
    expect(await adjustments(adminId)).toHaveLength(0);

    // A second admin adjusts the first one's account, and is refused their own.
    const other = server.client();
    const otherId = (await other.signIn(`${token()}@example.com`)).id;
    expect((await admin.post(`/api/admin/users/${otherId}/role`, { role: 'admin' })).status).toBe(
      200,
    );
    expect(
      (await other.post('/api/admin/unlock', { password: 'correct horse battery staple' })).status,
    ).toBe(200);
    expect(
      await other.post(credits(adminId), {
        amount: 7,
        reason: 'Goodwill',
        expectedBalance: before,
      }),
    ).toMatchObject({ status: 200, body: { remainingCredits: before + 7 } });
    const [made] = await adjustments(adminId);
    expect(made?.data).toMatchObject({ amount: 7, adminId: otherId });
    expect((await other.post(credits(otherId), { amount: 5, reason: 'Mine' })).body.error).toBe(
      'self_action',
    );
  });
});

describe('the last admin over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('refuses a demotion or deletion that would leave no admin (409 last_admin)', async () => {
    const a = server.client();
    const aId = (await a.signInAsAdmin()).id;
    const b = server.client();
    const bId = (await b.signIn(`${token()}@example.com`)).id;
    expect((await a.post(`/api/admin/users/${bId}/role`, { role: 'admin' })).status).toBe(200);
    // The moment of a race: b's demotion of a has reached the registry, a's own stream (and
    // profile) do not show it yet. a demoting or deleting b now would leave no admin.
    await changeAdminRegistry(
      server.deps.ledger,
      { type: 'RevokeAdmin', actorId: bId, targetId: aId, reason: 'demoted' },
      asAdmin(bId),
    );
    expect(await a.post(`/api/admin/users/${bId}/role`, { role: 'user' })).toMatchObject({
      status: 409,
      body: { error: 'last_admin' },
    });
    expect((await a.delete(`/api/admin/users/${bId}`)).body.error).toBe('last_admin');
    expect((await server.deps.ledger.load('user', bId)).state).toMatchObject({
      role: 'admin',
      status: 'active',
    });
  });
});

describe('the last admin', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('of two concurrent demotions of the last two admins, at most one succeeds', async () => {
    const a = server.client();
    const aId = (await a.signInAsAdmin()).id;
    const b = server.client();
    const bId = (await b.signIn(`${token()}@example.com`)).id;
    expect((await a.post(`/api/admin/users/${bId}/role`, { role: 'admin' })).status).toBe(200);
    await b.post('/api/admin/unlock', { password: 'correct horse battery staple' });
    const answers = await Promise.all([
      a.post(`/api/admin/users/${bId}/role`, { role: 'user' }),
      b.post(`/api/admin/users/${aId}/role`, { role: 'user' }),
    ]);
    const statuses = answers.map((r) => r.status).sort((m, n) => m - n);
    expect(statuses[0]).toBe(200);
    // The loser: refused by the registry (409 last_admin), or already seen as a user (403).
    expect([409, 403]).toContain(statuses[1]);
    const refused = answers.find((r) => r.status !== 200)!;
    expect(['last_admin', 'admin_required']).toContain(refused.body.error);
    const roles = await Promise.all(
      [aId, bId].map(async (id) => (await server.deps.ledger.load('user', id)).state.role),
    );
    expect(roles.filter((r) => r === 'admin')).toHaveLength(1);
  });
});

describe('the last admin, across two processes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('two ledgers (two API processes) on one store demote the last two admins: one passes, one is last_admin', async () => {
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) {
      const register = {
        type: 'RegisterUser' as const,
        userId: id,
        email: `${token()}@example.com`,
        fullName: null,
        firstName: null,
        lastName: null,
        avatarUrl: null,
        provider: 'dev' as const,
      };
      await server.deps.ledger.handle('user', id, register, systemContext());
      await server.deps.ledger.handle(
        'user',
        id,
        { type: 'ApplyAdminEmails', listed: true },
        systemContext(),
      );
    }
    const [x, y] = ids as [string, string];
    // Each ledger has its own handler of `admins`: only the stream's expected revision orders them.
    const other = new Ledger(server.deps.ledger.store);
    const results = await Promise.allSettled([
      changeAdminRegistry(
        server.deps.ledger,
        { type: 'RevokeAdmin', actorId: x, targetId: y, reason: 'demoted' },
        asAdmin(x),
      ),
      changeAdminRegistry(
        other,
        { type: 'RevokeAdmin', actorId: y, targetId: x, reason: 'demoted' },
        asAdmin(y),
      ),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refusal = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(isDomainError(refusal.reason) && refusal.reason.code).toBe('last_admin');
    const admins = new Set<string>();
    for (const e of await eventsOf(server, ADMINS_STREAM)) {
      const { userId } = e.data as { userId: string };
      if (e.type === 'AdminRegistered') admins.add(userId);
      else admins.delete(userId);
    }
    expect(admins.size).toBe(1);
  });
});
