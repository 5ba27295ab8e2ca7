import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from './support.ts';

const PASSWORD = 'correct horse battery staple';
const token = () => randomUUID().replace(/-/g, '').slice(0, 10);

/**
 * The acting admin is checked on the write side (their own user stream) on every admin route:
 * a blocked, demoted or deleted admin has no power left, whatever their session or the read
 * models say (the staff audit's D2: a blocked admin still read stats and added credits).
 */
describe('an admin who is blocked, demoted or deleted has no admin power', () => {
  let server: TestServer;
  let boss: Client;
  beforeAll(async () => {
    server = await startTestServer();
    boss = server.client();
    await boss.signInAsAdmin();
  });
  afterAll(() => server?.close());

  /** A promoted admin with an unlocked session, and a customer to act on. */
  const promotedAdmin = async () => {
    const client = server.client();
    const { id } = await client.signIn(`heidi-${token()}@example.com`, 'Heidi Hahn');
    expect((await boss.post(`/api/admin/users/${id}/role`, { role: 'admin' })).status).toBe(200);
    expect((await client.post('/api/admin/unlock', { password: PASSWORD })).status).toBe(200);
    expect((await client.get('/api/admin/stats')).status).toBe(200);
    const customer = server.client();
    const { id: customerId } = await customer.signIn(`probe-${token()}@example.com`);
    return { client, id, customerId };
  };

  /** Every power the audit tried, and a few more, refused with 403. */
  const expectNoPower = async (client: Client, customerId: string) => {
    const answers = [
      await client.get('/api/admin/stats'),
      await client.get('/api/admin/users'),
      await client.get(`/api/admin/users/${customerId}/ledger`),
      await client.get('/api/admin/ledger'),
      await client.post(`/api/admin/users/${customerId}/credits`, {
        amount: 1,
        reason: 'blocked admin test',
      }),
      await client.post(`/api/admin/users/${customerId}/block`),
      await client.post('/api/admin/unlock', { password: PASSWORD }),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.body.error).toBe('admin_required');
    }
    const customer = (await boss.get(`/api/admin/users/${customerId}`)).body;
    expect(customer).toMatchObject({ status: 'active', balance: 10 });
  };

  it('blocked: every admin route refuses at once, and an unblock asks for the password again', async () => {
    const heidi = await promotedAdmin();
    expect((await boss.post(`/api/admin/users/${heidi.id}/block`)).status).toBe(200);
    await expectNoPower(heidi.client, heidi.customerId);
    const blocked = await heidi.client.get('/api/admin/stats');
    expect(blocked.body.message).toBe('Access denied: this account is blocked');
    // Her unlock attempt is refused, and on record on her own stream.
    const refused = [];
    for await (const event of server.deps.ledger.store.readStream(`user-${heidi.id}`)) {
      if (event.type === 'AdminUnlockRefused') refused.push(event.data);
    }
    expect(refused).toEqual([{ reason: 'blocked' }]);

    // The unlock ended with the block: unblocked, she is an admin who must unlock again.
    expect((await boss.post(`/api/admin/users/${heidi.id}/unblock`)).status).toBe(200);
    expect((await heidi.client.get('/api/admin/stats')).body.error).toBe('admin_locked');
    expect((await heidi.client.post('/api/admin/unlock', { password: PASSWORD })).status).toBe(200);
    expect((await heidi.client.get('/api/admin/stats')).status).toBe(200);
  });

  it('decides on the user stream: a block written straight to the log refuses the next request', async () => {
    const heidi = await promotedAdmin();
    // Not through the admin route (which also ends her unlock): the session stays unlocked, and
    // the read models may not have seen the block yet. Her own stream has.
    await server.deps.ledger.handle(
      'user',
      heidi.id,
      { type: 'BlockUser', adminId: randomUUID() },
      { actor: { kind: 'system' }, correlationId: randomUUID() },
    );
    await expectNoPower(heidi.client, heidi.customerId);
  });

  it('demoted: admin routes refuse, and a new promotion asks for the password again', async () => {
    const heidi = await promotedAdmin();
    expect((await boss.post(`/api/admin/users/${heidi.id}/role`, { role: 'user' })).status).toBe(
      200,
    );
    await expectNoPower(heidi.client, heidi.customerId);
    expect((await boss.post(`/api/admin/users/${heidi.id}/role`, { role: 'admin' })).status).toBe(
      200,
    );
    expect((await heidi.client.get('/api/admin/stats')).body.error).toBe('admin_locked');
  });

  it('deleted: every session of the admin ends', async () => {
    const heidi = await promotedAdmin();
    expect((await boss.delete(`/api/admin/users/${heidi.id}`)).status).toBe(200);
    expect((await heidi.client.get('/api/admin/stats')).status).toBe(401);
    expect(
      (
        await heidi.client.post(`/api/admin/users/${heidi.customerId}/credits`, {
          amount: 1,
          reason: 'deleted admin test',
        })
      ).status,
    ).toBe(401);
  });
});
