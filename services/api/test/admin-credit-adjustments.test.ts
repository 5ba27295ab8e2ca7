/** Admin credit adjustments: decided on the balance the admin saw, never on the admin's own account. */
import { randomUUID } from 'node:crypto';
import { streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, lifePath, token } from './adminFixtures.ts';
import { type Client, startTestServer, type TestServer } from './support.ts';

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
