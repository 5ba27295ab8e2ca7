/** Checkout, subscriptions and renewals: the local checkout page on our clock, Stripe's API (a loopback stand-in), and production needing Stripe. */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { grantDueMonths } from '../src/modules/payments/renewals.ts';
import { invoice, member, signed, WEBHOOK_SECRET } from './paymentsFixtures.ts';
import { deliver, me } from './stripeWebhooks.ts';
import {
  caughtUp,
  OPERATOR_SETTINGS,
  startStripeDouble,
  startTestServer,
  type TestServer,
} from './support.ts';

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

describe('checkout through Stripe’s API (a loopback server standing in for it)', () => {
  const requests: { method: string; path: string; body: URLSearchParams }[] = [];
  let stripeApi: ReturnType<typeof createServer>;
  let server: TestServer;
  beforeAll(async () => {
    stripeApi = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const path = req.url ?? '';
        requests.push({ method: req.method ?? '', path, body: new URLSearchParams(body) });
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && path === '/v1/checkout/sessions') {
          const form = new URLSearchParams(body);
          return res.end(
            JSON.stringify({
              id: 'cs_test_loopback',
              object: 'checkout.session',
              url: 'https://checkout.stripe.test/c/pay/cs_test_loopback',
              mode: form.get('mode'),
              client_reference_id: form.get('client_reference_id'),
              metadata: { tierId: form.get('metadata[tierId]') },
            }),
          );
        }
        if (req.method === 'GET' && path.startsWith('/v1/checkout/sessions/cs_test_loopback')) {
          const userId = requests
            .find((r) => r.path === '/v1/checkout/sessions')
            ?.body.get('client_reference_id');
          return res.end(
            JSON.stringify({
              id: 'cs_test_loopback',
              object: 'checkout.session',
              status: 'complete',
              mode: 'subscription',
              client_reference_id: userId,
              subscription: 'sub_loopback',
              metadata: { tierId: '3' },
            }),
          );
        }
        if (req.method === 'POST' && path === '/v1/subscriptions/sub_loopback') {
          return res.end(
            JSON.stringify({
              id: 'sub_loopback',
              object: 'subscription',
              cancel_at_period_end: true,
              status: 'active',
            }),
          );
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      });
    });
    await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
    const address = stripeApi.address();
    server = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_loopback',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(typeof address === 'object' && address ? address.port : 0),
      STRIPE_API_PROTOCOL: 'http',
      PUBLIC_URL: 'https://astra.example',
    });
  });
  afterAll(async () => {
    await server?.close();
    stripeApi?.close();
  });

  it('creates a Stripe Checkout Session with our metadata, URLs and price, and cancels at period end', async () => {
    const { client, id } = await member(server);
    const answer = await client.post('/api/checkout', { tierId: 3, isSubscription: true });
    expect(answer.body).toEqual({
      url: 'https://checkout.stripe.test/c/pay/cs_test_loopback',
      sessionId: 'cs_test_loopback',
    });
    const form = requests.find((r) => r.path === '/v1/checkout/sessions')!.body;
    expect(Object.fromEntries(form)).toMatchObject({
      mode: 'subscription',
      client_reference_id: id,
      'metadata[tierId]': '3',
      'metadata[billingType]': 'subscription',
      'subscription_data[metadata][tierId]': '3',
      'subscription_data[metadata][billingType]': 'subscription',
      'subscription_data[metadata][userId]': id,
      'line_items[0][price_data][unit_amount]': '3499',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][recurring][interval]': 'month',
      success_url: 'https://astra.example/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://astra.example/cancel',
    });
    // STRIPE_AUTOMATIC_TAX is off by default: Stripe computes no tax.
    expect(form.has('automatic_tax[enabled]')).toBe(false);
    expect(form.has('line_items[0][price_data][tax_behavior]')).toBe(false);

    // The webhook makes the subscription; the status page then finds its credits.
    await deliver(
      server,
      signed('invoice.paid', invoice(id, 3, 'sub_loopback', '2026-11-21T10:00:00Z')),
    );
    await caughtUp(server);
    expect((await client.get('/api/checkout/sessions/cs_test_loopback')).body).toMatchObject({
      status: 'complete',
      creditsAdded: 250,
      billingType: 'subscription',
    });
    expect((await client.get('/api/checkout/local/cs_test_loopback')).status).toBe(404); // no local page with Stripe

    // With Stripe, a month comes with its paid invoice, never ahead of it.
    expect((await client.post('/api/subscription/refresh')).body.error).toBe('renewal_pending');

    const cancelled = await client.post('/api/subscription/cancel', {});
    expect(cancelled.status).toBe(200);
    const update = requests.find((r) => r.path === '/v1/subscriptions/sub_loopback')!;
    expect(update.method).toBe('POST');
    expect(update.body.get('cancel_at_period_end')).toBe('true');
  });
});

describe('checkout with STRIPE_AUTOMATIC_TAX=on (Stripe’s API, a loopback double)', () => {
  let server: TestServer;
  let double: Awaited<ReturnType<typeof startStripeDouble>>;
  beforeAll(async () => {
    double = await startStripeDouble(({ method, path }) =>
      method === 'POST' && path === '/v1/checkout/sessions'
        ? { id: 'cs_test_taxed', object: 'checkout.session', url: 'https://checkout.stripe.test/t' }
        : undefined,
    );
    server = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_loopback',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_AUTOMATIC_TAX: 'on',
      PUBLIC_URL: 'https://astra.example',
      ...double.env,
    });
  });
  afterAll(async () => {
    await server?.close();
    await double?.close();
  });

  it('asks Stripe to compute the tax from the billing address it collects, in our tax-inclusive prices', async () => {
    const { client } = await member(server);
    for (const isSubscription of [false, true]) {
      const answer = await client.post('/api/checkout', { tierId: 2, isSubscription });
      expect(answer.body.sessionId).toBe('cs_test_taxed');
    }
    const forms = double.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
      .map((r) => Object.fromEntries(r.body));
    expect(forms).toHaveLength(2);
    for (const form of forms) {
      expect(form).toMatchObject({
        'automatic_tax[enabled]': 'true',
        billing_address_collection: 'required',
        'line_items[0][price_data][tax_behavior]': 'inclusive',
      });
    }
  });
});

describe('configuration', () => {
  it('reads STRIPE_AUTOMATIC_TAX as on or off, off by default', () => {
    expect(loadConfig({}).STRIPE_AUTOMATIC_TAX).toBe('off');
    expect(loadConfig({ STRIPE_AUTOMATIC_TAX: 'on' }).STRIPE_AUTOMATIC_TAX).toBe('on');
    expect(() => loadConfig({ STRIPE_AUTOMATIC_TAX: 'yes' })).toThrow(/STRIPE_AUTOMATIC_TAX/);
  });

  it('refuses production without Stripe: the local checkout page is for development', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-long-enough-production-secret',
      PUBLIC_URL: 'https://astra.example',
      DATA_KEY_SECRET: 'the-master-secret-of-the-data-keys',
      SMTP_URL: 'smtp://mail.astra-readings.test:587',
      ...OPERATOR_SETTINGS,
    };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(
      /STRIPE_SECRET_KEY: is required when NODE_ENV=production/,
    );
    expect(() =>
      loadConfig({
        ...production,
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }),
    ).not.toThrow();
    expect(() => loadConfig({ PRICING_AMOUNTS: '1:monthly=999' })).toThrow(/PRICING_AMOUNTS/);
  });
});
