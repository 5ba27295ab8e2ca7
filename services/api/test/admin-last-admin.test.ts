/** The last admin can be neither demoted nor deleted: over HTTP, in the ledger, across two processes. */
import { randomUUID } from 'node:crypto';
import { ADMINS_STREAM, isDomainError } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandContext, Ledger, systemContext } from '../src/ledger/ledger.ts';
import { changeAdminRegistry } from '../src/modules/admin/registry.ts';
import { eventsOf, token } from './adminFixtures.ts';
import { startTestServer, type TestServer } from './support.ts';

const asAdmin = (userId: string): CommandContext => ({
  actor: { kind: 'user', userId, role: 'admin' },
  correlationId: randomUUID(),
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
