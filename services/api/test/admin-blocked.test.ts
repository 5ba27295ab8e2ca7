/** A blocked user is refused on the write side, whatever the read models show. */
import { randomUUID } from 'node:crypto';
import { adminMessages } from '@astra/contracts';
import { streams } from '@astra/ledger';
import type { Projector } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { eventsOf, lifePath, token } from './adminFixtures.ts';
import { caughtUp, startServerWithHeldProjector, type TestServer } from './support.ts';

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
