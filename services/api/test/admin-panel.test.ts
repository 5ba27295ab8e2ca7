/** The admin panel over HTTP: users, blocking, roles, deletion; a blocked user refused on the write side whatever the read models show. */
import { randomUUID } from 'node:crypto';
import { adminMessages } from '@astra/contracts';
import { streams } from '@astra/ledger';
import { type Projector, verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { eventsOf, lifePath, token } from './adminFixtures.ts';
import {
  type Client,
  caughtUp,
  startServerWithHeldProjector,
  startTestServer,
  type TestServer,
} from './support.ts';

describe('the admin panel: users, block, roles, deletion', () => {
  let server: TestServer;
  let admin: Client;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = server.client();
    adminId = (await admin.signInAsAdmin()).id;
  });
  afterAll(() => server?.close());

  const signedIn = async (email = `${token()}@example.com`, fullName?: string) => {
    const client = server.client();
    const me = await client.signIn(email, fullName);
    return { client, id: me.id, email, credits: me.remainingCredits };
  };

  it('unlock: a wrong password and a right one are events on the admin stream, with the actor', async () => {
    const other = server.client();
    const { id } = await other.signIn('admin@example.com');
    expect(await other.get('/api/admin/session')).toMatchObject({
      status: 200,
      body: { unlocked: false, unlockedUntil: null },
    });
    expect(await other.post('/api/admin/unlock', { password: 'wrong' })).toMatchObject({
      status: 403,
      body: { error: 'incorrect_password', message: adminMessages.incorrectPassword },
    });
    const unlocked = await other.post('/api/admin/unlock', {
      password: 'correct horse battery staple',
    });
    expect(unlocked.body.message).toBe(adminMessages.accessGranted);
    const session = await other.get('/api/admin/session');
    expect(session.body).toEqual({ unlocked: true, unlockedUntil: unlocked.body.unlockedUntil });
    const attempts = (await eventsOf(server, streams.user(id))).filter((e) =>
      e.type.startsWith('AdminUnlock'),
    );
    expect(attempts.slice(-2).map((e) => [e.type, e.metadata.actor])).toEqual([
      ['AdminUnlockFailed', { kind: 'user', userId: id, role: 'admin' }],
      ['AdminUnlocked', { kind: 'user', userId: id, role: 'admin' }],
    ]);
    // Locking asks for the password again.
    expect(await other.post('/api/admin/lock')).toMatchObject({
      status: 200,
      body: { ok: true, message: 'Admin panel locked' },
    });
    expect((await other.get('/api/admin/session')).body.unlocked).toBe(false);
    expect((await other.get('/api/admin/users')).body.error).toBe('admin_locked');
  });

  it('authorizes every admin route: anonymous 401, user 403, locked admin 403, unlocked admin 200', async () => {
    const anonymous = server.client();
    const { client: user } = await signedIn();
    const locked = server.client();
    await locked.signIn('admin@example.com');
    const targets = await Promise.all([signedIn(), signedIn(), signedIn(), signedIn()]);
    const [blockT, unblockT, roleT, deleteT] = targets.map((t) => t.id);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${blockT}`],
      ['POST', `/api/admin/users/${blockT}/block`, {}],
      ['POST', `/api/admin/users/${unblockT}/unblock`, {}],
      ['POST', `/api/admin/users/${roleT}/role`, { role: 'user' }],
      ['DELETE', `/api/admin/users/${deleteT}`],
    ];
    for (const [method, path, body] of routes) {
      expect((await anonymous.request(method, path, body)).status, path).toBe(401);
      expect((await user.request(method, path, body)).body.error, path).toBe('admin_required');
      expect((await locked.request(method, path, body)).body.error, path).toBe('admin_locked');
      const ok = await admin.request(method, path, body, { 'idempotency-key': randomUUID() });
      expect(ok.status, `${method} ${path}: ${JSON.stringify(ok.body)}`).toBe(200);
    }
    // The panel's session routes need the admin role, not an unlocked session.
    for (const [method, path] of [
      ['GET', '/api/admin/session'],
      ['POST', '/api/admin/lock'],
    ] as const) {
      const body = method === 'GET' ? undefined : {};
      expect((await anonymous.request(method, path, body)).status).toBe(401);
      expect((await user.request(method, path, body)).body.error).toBe('admin_required');
      expect((await locked.request(method, path, body)).status).toBe(200);
    }
    expect((await admin.get(`/api/admin/users/${randomUUID()}`)).status).toBe(404);
    expect((await admin.post(`/api/admin/users/${randomUUID()}/block`)).body.error).toBe(
      'user_not_found',
    );
  });

  it('answers each documented refusal of the user routes', async () => {
    const gone = await signedIn();
    await gone.client.delete('/api/me');
    const nobody = randomUUID();
    for (const path of [`/api/admin/users/${nobody}/block`, `/api/admin/users/${nobody}/unblock`]) {
      expect((await admin.post(path)).body.error).toBe('user_not_found');
    }
    expect(
      (await admin.post(`/api/admin/users/${nobody}/role`, { role: 'admin' })).body.error,
    ).toBe('user_not_found');
    expect((await admin.delete(`/api/admin/users/${nobody}`)).body.error).toBe('user_not_found');
    expect((await admin.get(`/api/admin/users/not-a-uuid`)).body.error).toBe('not_found');
    for (const action of ['block', 'unblock']) {
      expect((await admin.post(`/api/admin/users/${gone.id}/${action}`)).body.error).toBe(
        'account_deleted',
      );
      expect((await admin.post(`/api/admin/users/${adminId}/${action}`)).body).toMatchObject({
        error: 'self_action',
        message: `You cannot ${action} your own account`,
      });
    }
    expect(
      (await admin.post(`/api/admin/users/${gone.id}/role`, { role: 'admin' })).body.error,
    ).toBe('account_deleted');
    expect((await admin.post(`/api/admin/users/${gone.id}/role`, { role: 'owner' })).status).toBe(
      400,
    );
    expect((await admin.get(`/api/admin/users?search=${'x'.repeat(201)}`)).body.error).toBe(
      'invalid_request',
    );
  });

  it('searches first, last and full name and e-mail, case-insensitively, as a substring', async () => {
    const t = token();
    const a = await signedIn(`a-${token()}@example.com`, `X${t}first Smith`);
    const b = await signedIn(`b-${token()}@example.com`, `Jane Y${t}last`);
    const c = await signedIn(`c.${t}@example.com`);
    await signedIn(`d-${token()}@example.com`, 'Nobody Else');
    const ids = async (search: string) => {
      const page = await admin.get(`/api/admin/users?search=${encodeURIComponent(search)}`);
      expect(page.status).toBe(200);
      return page.body.items.map((u: { id: string }) => u.id);
    };
    // Newest first.
    expect(await ids(t.toUpperCase())).toEqual([c.id, b.id, a.id]);
    expect(await ids(`x${t}FIRST`)).toEqual([a.id]);
    expect(await ids(`${t}first sMiTh`)).toEqual([a.id]); // the full name
    expect(await ids(`y${t}LA`)).toEqual([b.id]); // part of the last name
    expect(await ids(`C.${t}@EXAMPLE`)).toEqual([c.id]); // the e-mail
    expect(await ids(`${t}%`)).toEqual([]); // a wildcard is a character like any other
    const [shown] = (await admin.get(`/api/admin/users?search=c.${t}`)).body.items;
    expect(shown).toMatchObject({
      displayName: adminMessages.unnamed,
      firstName: null,
      status: 'active',
      role: 'user',
      balance: c.credits,
      subscription: null,
    });
    expect((await admin.get(`/api/admin/users/${a.id}`)).body).toMatchObject({
      id: a.id,
      displayName: `X${t}first Smith`,
      firstName: `X${t}first`,
      lastName: 'Smith',
    });
  });

  it('pages 20 at a time, newest first, with the total', async () => {
    const t = token();
    const created: string[] = [];
    for (let i = 0; i < 21; i++) {
      const userId = randomUUID();
      await server.deps.ledger.handle(
        'user',
        userId,
        {
          type: 'RegisterUser',
          userId,
          email: `page${i}.${t}@example.com`,
          fullName: null,
          firstName: null,
          lastName: null,
          avatarUrl: null,
          provider: 'dev',
        },
        systemContext(),
      );
      created.push(userId);
      // Each joins in a millisecond of its own: a tie is ordered by id, not by arrival.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await caughtUp(server);
    const first = await admin.get(`/api/admin/users?search=.${t}@`);
    expect(first.body).toMatchObject({ page: 1, pageSize: 20, total: 21, totalCapped: false });
    expect(first.body.items.map((u: { id: string }) => u.id)).toEqual(created.slice(1).reverse());
    const second = await admin.get(`/api/admin/users?search=.${t}@&page=2`);
    expect(second.body).toMatchObject({ page: 2, total: 21 });
    expect(second.body.items.map((u: { id: string }) => u.id)).toEqual([created[0]]);
    expect((await admin.get('/api/admin/users?page=0')).status).toBe(400);
    const all = await admin.get('/api/admin/users');
    expect(all.body.total).toBeGreaterThanOrEqual(22);
    expect(all.body.items).toHaveLength(20);
  });

  it('blocks (the reading is refused, nothing spent) and unblocks', async () => {
    const { client, id, credits } = await signedIn();
    const blocked = await admin.post(`/api/admin/users/${id}/block`);
    expect(blocked.body).toMatchObject({
      message: adminMessages.blocked,
      user: { id, status: 'blocked' },
    });
    expect(await client.post('/api/readings/life-path', lifePath)).toMatchObject({
      status: 403,
      body: { error: 'account_blocked', message: adminMessages.accountBlocked },
    });
    expect((await server.deps.ledger.load('credits', id)).state.balance).toBe(credits);
    const [event] = (await eventsOf(server, streams.user(id))).filter(
      (e) => e.type === 'UserBlocked',
    );
    expect(event?.data).toEqual({ adminId });
    expect(event?.metadata.actor).toEqual({ kind: 'user', userId: adminId, role: 'admin' });
    const unblocked = await admin.post(`/api/admin/users/${id}/unblock`);
    expect(unblocked.body).toMatchObject({
      message: adminMessages.unblocked,
      user: { status: 'active' },
    });
    expect((await client.post('/api/readings/life-path', lifePath)).status).toBe(201);
  });

  it('promotes and demotes; the role stays at the next sign-in; admins act on admins, never on themselves', async () => {
    const p = await signedIn();
    const q = await signedIn();
    const promoted = await admin.post(`/api/admin/users/${p.id}/role`, { role: 'admin' });
    expect(promoted.body).toMatchObject({
      message: adminMessages.promoted,
      user: { id: p.id, role: 'admin' },
    });
    // Not in ADMIN_EMAILS: the role an admin gave stays at the next sign-in.
    const again = server.client();
    await again.signIn(p.email);
    expect((await again.get('/api/me')).body.role).toBe('admin');
    await again.post('/api/admin/unlock', { password: 'correct horse battery staple' });
    // Another admin acting on an admin is allowed...
    expect((await again.post(`/api/admin/users/${adminId}/block`)).status).toBe(200);
    expect((await again.post(`/api/admin/users/${adminId}/unblock`)).status).toBe(200);
    // The block ended the first admin's unlock: unblocked, they enter the password again.
    expect((await admin.get('/api/admin/users')).body.error).toBe('admin_locked');
    await admin.post('/api/admin/unlock', { password: 'correct horse battery staple' });
    expect((await again.post(`/api/admin/users/${q.id}/role`, { role: 'admin' })).status).toBe(200);
    expect(
      (await again.post(`/api/admin/users/${q.id}/role`, { role: 'user' })).body,
    ).toMatchObject({ message: adminMessages.demoted, user: { role: 'user' } });
    // ...but not on themselves.
    expect(await again.post(`/api/admin/users/${p.id}/role`, { role: 'user' })).toMatchObject({
      status: 409,
      body: { error: 'self_action', message: 'You cannot demote your own account' },
    });
    expect(await again.post(`/api/admin/users/${p.id}/block`)).toMatchObject({
      status: 409,
      body: { error: 'self_action', message: 'You cannot block your own account' },
    });
    expect(await again.delete(`/api/admin/users/${p.id}`)).toMatchObject({
      status: 409,
      body: { error: 'self_action', message: 'You cannot delete your own account' },
    });
    // Demoted by an admin: it stays at the next sign-in as well.
    expect((await admin.post(`/api/admin/users/${p.id}/role`, { role: 'user' })).status).toBe(200);
    const later = server.client();
    await later.signIn(p.email);
    expect((await later.get('/api/me')).body.role).toBe('user');
    const roles = (await eventsOf(server, streams.user(p.id)))
      .filter((e) => e.type === 'UserRoleChanged')
      .map((e) => e.data);
    expect(roles).toEqual([
      { role: 'admin', source: 'admin', adminId },
      { role: 'user', source: 'admin', adminId },
    ]);
  });

  it('deletes as the user would: subscription gone, credits forfeited as an event, e-mail released; ledger:verify clean', async () => {
    const d = await signedIn();
    expect(d.credits).toBeGreaterThan(0);
    const deleted = await admin.delete(`/api/admin/users/${d.id}`);
    expect(deleted.body).toMatchObject({
      message: adminMessages.deleted,
      user: { id: d.id, status: 'deleted' },
    });
    const credits = await eventsOf(server, streams.credits(d.id));
    const forfeited = credits.find((e) => e.type === 'CreditsForfeited');
    expect(forfeited?.data).toMatchObject({ amount: d.credits });
    expect(forfeited?.metadata.actor).toEqual({ kind: 'user', userId: adminId, role: 'admin' });
    expect(credits.at(-1)?.type).toBe('CreditAccountClosed');
    // Deleted, then erased (services/api/test/erasure.test.ts), with the deletion's reason.
    const user = (await eventsOf(server, streams.user(d.id))).slice(-2);
    expect(user).toMatchObject([
      { type: 'UserDeleted', data: { reason: 'deleted_by_admin', adminId } },
      { type: 'PersonalDataErased', data: { reason: 'deleted_by_admin', adminId } },
    ]);
    // Signed out; the address is free for a new account (which gets no free credits again).
    expect((await d.client.get('/api/me')).status).toBe(401);
    const reborn = await server.client().signIn(d.email);
    expect(reborn.id).not.toBe(d.id);
    expect(reborn.remainingCredits).toBe(0);
    // Not listed any more; deleting again changes nothing.
    const listed = await admin.get(`/api/admin/users?search=${encodeURIComponent(d.email)}`);
    expect(listed.body.items.map((u: { id: string }) => u.id)).toEqual([reborn.id]);
    expect((await admin.delete(`/api/admin/users/${d.id}`)).status).toBe(200);
    await caughtUp(server);
    expect((await verifyLedger(server.deps.ledger.store, server.deps.db)).differences).toEqual([]);
  });
});

describe('a blocked user is refused on the write side, whatever the read models show', () => {
  let server: TestServer | undefined;
  let projector: Projector;
  beforeAll(async () => {
    const held = await startServerWithHeldProjector();
    if (held) ({ server, projector } = held);
  });
  afterAll(() => server?.close());

  it('refuses the reading and the checkout of a user whose profile still shows them active', async (context) => {
    if (!server) return context.skip();
    // The projector runs for the sign-ins (they wait for the profile), then stops.
    projector.start();
    const admin = server.client();
    await admin.signIn('admin@example.com', 'Ada Admin');
    await admin.post('/api/admin/unlock', { password: 'correct horse battery staple' });
    const user = server.client();
    const { id, remainingCredits } = await user.signIn(`${token()}@example.com`);
    await caughtUp(server);
    await projector.stop();

    // Blocked on the user stream; the profile read model is held back (no projector runs).
    expect((await admin.post(`/api/admin/users/${id}/block`)).status).toBe(200);
    expect((await server.deps.ledger.load('user', id)).state.status).toBe('blocked');
    expect((await user.get('/api/me')).body.status).toBe('active');

    const before = (await eventsOf(server, streams.credits(id))).length;
    expect(await user.post('/api/readings/life-path', lifePath)).toMatchObject({
      status: 403,
      body: { error: 'account_blocked', message: adminMessages.accountBlocked },
    });
    expect(
      (await user.post('/api/checkout', { tierId: 1, isSubscription: false })).body.error,
    ).toBe('account_blocked');
    expect((await eventsOf(server, streams.credits(id))).length).toBe(before);
    expect((await server.deps.ledger.load('credits', id)).state.balance).toBe(remainingCredits);

    // The credit decider itself refuses a spend made for a blocked user (a block that lands
    // between the check and the spend).
    await expect(
      server.deps.ledger.handle(
        'credits',
        id,
        {
          type: 'SpendCredits',
          spendId: randomUUID(),
          amount: 1,
          purpose: 'reading',
          description: 'test',
          appId: null,
          readingId: null,
          blocked: true,
        },
        systemContext(),
      ),
    ).rejects.toMatchObject({ code: 'account_blocked' });

    // Unblocked on the write side: the reading goes through, read models still behind.
    expect((await admin.post(`/api/admin/users/${id}/unblock`)).status).toBe(200);
    expect((await user.post('/api/readings/life-path', lifePath)).status).toBe(201);
  });
});
