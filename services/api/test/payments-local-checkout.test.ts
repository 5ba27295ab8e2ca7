/** Pricing, checkout, subscriptions and renewals through the API with the local checkout page and our clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantDueMonths } from '../src/modules/payments/renewals.ts';
import { member } from './paymentsFixtures.ts';
import { me } from './stripeWebhooks.ts';
import { caughtUp, startTestServer, type TestServer } from './support.ts';

describe('checkout, subscriptions and renewals through the API (local checkout, our clock)', () => {
  let server: TestServer;
  let now = new Date('2026-11-21T10:00:00Z');
  beforeAll(async () => {
    server = await startTestServer({}, undefined, { clock: () => now });
  });
  afterAll(() => server?.close());

  it('lists the four tiers with both rows in the spec’s order', async () => {
    const { body } = await server.client().get('/api/pricing');
    expect(body.tiers.map((t: { name: string }) => t.name)).toEqual([
      'Starter',
      'Explorer',
      'Stargazer',
      'Celestial Pro',
    ]);
    expect(body.tiers[2]).toMatchObject({
      popular: true,
      description: 'Premium access for frequent seekers',
    });
    expect(body.currency).toBe('usd');
    expect(body.tiers[0].rows).toEqual([
      {
        billingType: 'subscription',
        priceMinor: 999,
        currency: 'usd',
        price: '9.99',
        creditsIncluded: 60,
        features: expect.arrayContaining(['60 credits every month']),
      },
      {
        billingType: 'one_time',
        priceMinor: 799,
        currency: 'usd',
        price: '7.99',
        creditsIncluded: 40,
        features: expect.arrayContaining(['40 credits that never expire']),
      },
    ]);
  });

  it('refuses checkouts for tiers and billing types that do not exist, and anonymous ones', async () => {
    const { client } = await member(server);
    for (const body of [
      { tierId: '2', isSubscription: false },
      { tierId: 2.5, isSubscription: false },
      { tierId: 99, isSubscription: true },
      { tierId: 2 },
    ]) {
      const answer = await client.post('/api/checkout', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
    }
    expect(
      (await server.client().post('/api/checkout', { tierId: 1, isSubscription: true })).status,
    ).toBe(401);
  });

  it('subscribes on the local checkout page, refreshes when due with the rollover rule, and cancels', async () => {
    try {
      await subscribeRefreshCancel();
    } finally {
      now = new Date('2026-11-21T10:00:00Z');
    }
  });

  async function subscribeRefreshCancel() {
    const { client } = await member(server);
    const checkout = await client.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect(checkout.body.url).toBe(`/checkout/local/${checkout.body.sessionId}`);
    expect((await client.get(`/api/checkout/local/${checkout.body.sessionId}`)).body).toMatchObject(
      {
        tierName: 'Starter',
        billingType: 'subscription',
        price: '9.99',
        credits: 60,
        status: 'open',
      },
    );
    expect(
      (await client.post(`/api/checkout/local/${checkout.body.sessionId}/pay`)).body.redirectUrl,
    ).toBe(`/success?session_id=${checkout.body.sessionId}`);
    await caughtUp(server);
    expect(
      (await client.get(`/api/checkout/sessions/${checkout.body.sessionId}`)).body,
    ).toMatchObject({ status: 'complete', creditsAdded: 60, remainingCredits: 70 });

    // Not due before the renewal date (the first of next month).
    const early = await client.post('/api/subscription/refresh');
    expect(early).toMatchObject({
      status: 409,
      body: {
        error: 'refresh_not_due',
        message: 'Your next renewal is in 10 days on December 1, 2026.',
        days: 10,
      },
    });

    now = new Date('2026-12-02T09:00:00Z');
    expect((await client.get('/api/subscription')).body).toMatchObject({
      isSubscriber: true,
      needsRefresh: true,
      creditsRemaining: 70,
    });
    const refreshed = await client.post('/api/subscription/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.message).toBe(
      'Monthly credits refreshed! Added 60 credits + 60 rolled over. New balance: 130.',
    );
    expect(refreshed.body.subscription).toMatchObject({
      creditsRemaining: 130, // the free 10 never count against the rollover
      needsRefresh: false,
      nextRenewalDate: '2027-01-01',
    });
    expect((await client.post('/api/subscription/refresh')).body.error).toBe('refresh_not_due');

    const cancelled = await client.post('/api/subscription/cancel', {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe(
      'Your subscription is cancelled. Your access continues until January 1, 2027.',
    );
    expect(cancelled.body.subscription).toMatchObject({ subscriptionStatus: 'cancelled' });
    expect((await client.post('/api/subscription/cancel', {})).body).toMatchObject({
      error: 'no_active_subscription',
      message: 'User does not have an active subscription',
    });
    expect((await client.post('/api/subscription/refresh')).body).toMatchObject({
      error: 'no_active_subscription',
    });
  }

  it('buys a one-time pack on the local checkout page; a cancelled checkout grants nothing', async () => {
    const { client } = await member(server);
    const bought = await client.post('/api/checkout', { tierId: 3, isSubscription: false });
    await client.post(`/api/checkout/local/${bought.body.sessionId}/pay`);
    await caughtUp(server);
    expect(
      (await client.get(`/api/checkout/sessions/${bought.body.sessionId}`)).body,
    ).toMatchObject({ status: 'complete', creditsAdded: 180 });
    expect((await client.post(`/api/checkout/local/${bought.body.sessionId}/pay`)).status).toBe(
      404,
    ); // paid once

    const abandoned = await client.post('/api/checkout', { tierId: 1, isSubscription: false });
    expect(
      (await client.post(`/api/checkout/local/${abandoned.body.sessionId}/cancel`)).body
        .redirectUrl,
    ).toBe('/cancel');
    expect(
      (await client.get(`/api/checkout/sessions/${abandoned.body.sessionId}`)).body,
    ).toMatchObject({ status: 'canceled', creditsAdded: null });
    expect((await me(client)).remainingCredits).toBe(190);
    const stranger = await member(server);
    expect(
      (await stranger.client.get(`/api/checkout/sessions/${bought.body.sessionId}`)).status,
    ).toBe(404);
  });

  it('grants due months itself when no Stripe sends invoices, once per period, and ends cancelled subscriptions', async () => {
    const { client } = await member(server);
    const checkout = await client.post('/api/checkout', { tierId: 2, isSubscription: true });
    await client.post(`/api/checkout/local/${checkout.body.sessionId}/pay`);
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(140); // 130 + 10

    const december = new Date('2026-12-01T06:00:00Z');
    expect(
      await grantDueMonths(server.deps.ledger, server.deps.read, december, server.deps.logger),
    ).toBeGreaterThanOrEqual(1);
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(270); // 10 free + 130 + min(130, 130)
    const again = await grantDueMonths(
      server.deps.ledger,
      server.deps.read,
      december,
      server.deps.logger,
    );
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(270);
    expect(again).toBe(0);

    await client.post('/api/subscription/cancel', {});
    await grantDueMonths(
      server.deps.ledger,
      server.deps.read,
      new Date('2027-01-02T06:00:00Z'),
      server.deps.logger,
    );
    await caughtUp(server);
    expect((await me(client)).subscription).toBeNull();
  });
});
