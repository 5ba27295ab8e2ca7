import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caughtUp, startTestServer, type TestServer } from './support.ts';

type Entry = { type: string; amount: number; reason: string };

/** The consumer's Credit History shows what moved credits; the admin's view keeps everything. */
describe('GET /api/me/ledger?changesOnly=true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('leaves out the entries of 0 credits, which the full history and the admin view keep', async () => {
    const member = server.client();
    const me = await member.signIn('history@example.com', 'Maya Rivers');
    // A plan's checkout opened: a bookkeeping entry of 0 credits.
    const checkout = await member.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    await caughtUp(server);

    const all = (await member.get('/api/me/ledger')).body;
    expect(all.items.some((entry: Entry) => entry.amount === 0)).toBe(true);

    const changes = (await member.get('/api/me/ledger?changesOnly=true')).body;
    expect(changes.items.map((entry: Entry) => [entry.type, entry.amount])).toEqual([
      ['FreeCreditsGranted', 10],
    ]);
    expect(changes.total).toBe(1);
    expect(all.total).toBeGreaterThan(changes.total);

    const admin = server.client();
    await admin.signInAsAdmin();
    const audit = (await admin.get(`/api/admin/users/${me.id}/ledger`)).body;
    expect(audit.items.map((entry: Entry) => entry.type)).toEqual(
      all.items.map((entry: Entry) => entry.type),
    );
  });

  it('refuses a changesOnly that is not true or false, naming it', async () => {
    const member = server.client();
    await member.signIn('history-bad@example.com', 'Jonas Weber');
    const answer = await member.get('/api/me/ledger?changesOnly=yes');
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual([
      { field: 'changesOnly', message: expect.stringContaining('true or false') },
    ]);
  });
});
