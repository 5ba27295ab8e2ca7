import { randomUUID } from 'node:crypto';
import type { Projector } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { subscriptionTier } from '../src/modules/payments/pricing.ts';
import { caughtUp, startServerWithHeldProjector, type TestServer } from './support.ts';

/**
 * Refresh and cancel decide on the credit stream's subscription, as a plan change does, never on
 * the profile read model, which may lag behind the stream.
 */
describe('subscription refresh and cancel decide on the write side', () => {
  let server: TestServer | undefined;
  let projector: Projector;
  beforeAll(async () => {
    const held = await startServerWithHeldProjector();
    if (held) ({ server, projector } = held);
  });
  afterAll(() => server?.close());

  it('refreshes a subscription the profile does not show yet, and refuses a second cancel the profile still shows as active', async (context) => {
    if (!server) return context.skip();
    projector.start();
    const user = server.client();
    const { id } = await user.signIn(`sub-${randomUUID().slice(0, 8)}@example.com`);
    await caughtUp(server);
    await projector.stop();

    // A subscription since January, due for its month: on the stream only.
    const tier = await subscriptionTier(server.deps.read, 1);
    expect(tier).toBeDefined();
    await server.deps.ledger.handle(
      'credits',
      id,
      {
        type: 'ActivateSubscription',
        tier: tier!,
        subscriptionId: `sub_${randomUUID()}`,
        now: new Date('2026-01-15T12:00:00Z'),
      },
      systemContext(),
    );
    expect((await user.get('/api/subscription')).body.isSubscriber).toBe(false);

    const refreshed = await user.post('/api/subscription/refresh');
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const account = (await server.deps.ledger.load('credits', id)).state;
    expect(account.balance).toBe(10 + tier!.creditsPerMonth);

    // Cancelled on the stream; the profile (held back) still says active.
    expect((await user.post('/api/subscription/cancel', {})).status).toBe(200);
    expect((await user.get('/api/subscription')).body.subscriptionStatus).not.toBe('cancelled');
    expect(await user.post('/api/subscription/cancel', {})).toMatchObject({
      status: 409,
      body: { error: 'no_active_subscription' },
    });
  });
});
