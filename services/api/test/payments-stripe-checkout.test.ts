/** Checkout through Stripe's API (a loopback server standing in for it): the session we create, cancelling at period end. */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoice, member, signed, WEBHOOK_SECRET } from './paymentsFixtures.ts';
import { deliver } from './stripeWebhooks.ts';
import { caughtUp, startTestServer, type TestServer } from './support.ts';

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
