/** Money that must stop, through Stripe's API (a loopback double). */
import { verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { member, signed, WEBHOOK_SECRET } from './moneyFixtures.ts';
import { deliver, me, paidInvoice, uid } from './stripeWebhooks.ts';
import {
  type StripeRequest,
  startStripeDouble,
  startTestServer,
  type TestServer,
} from './support.ts';

describe('money that must stop, through Stripe’s API (a loopback double)', () => {
  let server: TestServer;
  let double: Awaited<ReturnType<typeof startStripeDouble>>;
  const sessions = new Map<string, Record<string, unknown>>();
  let refunds = 0;

  const answer = ({ method, path, body }: StripeRequest): unknown => {
    const [route] = path.split('?');
    if (method === 'POST' && route === '/v1/checkout/sessions') {
      const id = `cs_test_${uid()}`;
      const session = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        mode: body.get('mode'),
        client_reference_id: body.get('client_reference_id'),
        expires_at: Number(body.get('expires_at')),
        metadata: { tierId: body.get('metadata[tierId]') },
      };
      sessions.set(id, session);
      return session;
    }
    const expire = route!.match(/^\/v1\/checkout\/sessions\/(cs_[^/]+)\/expire$/);
    if (method === 'POST' && expire) {
      const session = sessions.get(expire[1]!);
      if (!session) return undefined;
      session.status = 'expired';
      return session;
    }
    const subscription = route!.match(/^\/v1\/subscriptions\/(sub_[^/]+)$/);
    if (subscription) {
      const id = subscription[1];
      if (method === 'DELETE') return { id, object: 'subscription', status: 'canceled' };
      return {
        id,
        object: 'subscription',
        status: 'active',
        items: {
          object: 'list',
          data: [
            {
              id: `si_${id}`,
              object: 'subscription_item',
              price: { id: 'price_old', product: 'prod_old' },
            },
          ],
        },
        metadata: {},
      };
    }
    if (method === 'POST' && route === '/v1/products') return { id: 'prod_new', object: 'product' };
    if (method === 'POST' && route === '/v1/refunds') {
      refunds++;
      return { id: `re_${refunds}`, object: 'refund', status: 'succeeded' };
    }
    return undefined;
  };

  beforeAll(async () => {
    double = await startStripeDouble(answer);
    server = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_loopback',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_URL: 'https://astra.example',
      ...double.env,
    });
  });
  afterAll(async () => {
    await server?.close();
    await double?.close();
  });

  const calls = (method: string, path: string) =>
    double.requests.filter((r) => r.method === method && r.path.split('?')[0] === path);

  it('expires a refused checkout at Stripe, and lets a new one start once Stripe expired the open one', async () => {
    const { client, id } = await member(server);
    const before = Date.now();
    const first = await client.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect(first.status).toBe(200);
    const created = calls('POST', '/v1/checkout/sessions').at(-1)!;
    const expiresAt = Number(created.body.get('expires_at'));
    expect(expiresAt - Math.floor(before / 1000)).toBeGreaterThanOrEqual(30 * 60);
    expect(expiresAt - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(32 * 60);

    const second = await client.post('/api/checkout', { tierId: 2, isSubscription: true });
    expect(second.body).toMatchObject({
      error: 'checkout_in_progress',
      url: first.body.url,
      sessionId: first.body.sessionId,
    });
    // The session made for the refused request is expired at Stripe: nobody can pay it.
    const refusedId = [...sessions.values()].find(
      (s) => s.client_reference_id === id && s.id !== first.body.sessionId,
    )!.id as string;
    expect(calls('POST', `/v1/checkout/sessions/${refusedId}/expire`)).toHaveLength(1);
    expect(calls('POST', `/v1/checkout/sessions/${first.body.sessionId}/expire`)).toHaveLength(0);

    const expired = {
      id: first.body.sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'expired',
      client_reference_id: id,
      metadata: { userId: id, tierId: '1', billingType: 'subscription' },
    };
    expect((await deliver(server, signed('checkout.session.expired', expired))).body.outcome).toBe(
      'expired: the account may start another subscription checkout',
    );
    expect((await client.post('/api/checkout', { tierId: 2, isSubscription: true })).status).toBe(
      200,
    );
  });

  it('changes the plan at Stripe from the next invoice, without proration', async () => {
    const { client, id } = await member(server);
    const subscriptionId = `sub_${uid()}`;
    await deliver(
      server,
      signed('invoice.paid', paidInvoice(id, 1, subscriptionId, new Date().toISOString())),
    );
    const changed = await client.post('/api/subscription/change', { tierId: 3 });
    expect(changed.status).toBe(200);
    const update = calls('POST', `/v1/subscriptions/${subscriptionId}`).at(-1)!;
    expect(Object.fromEntries(update.body)).toMatchObject({
      proration_behavior: 'none',
      'items[0][id]': `si_${subscriptionId}`,
      'items[0][price_data][unit_amount]': '3499',
      'items[0][price_data][product]': 'prod_new',
      'items[0][price_data][recurring][interval]': 'month',
      'metadata[tierId]': '3',
      'metadata[userId]': id,
    });
    expect(changed.body.subscription.subscriptionTier).toBe('Stargazer');
    // Stripe's own report of the change finds it made.
    expect(
      (
        await deliver(
          server,
          signed('customer.subscription.updated', {
            id: subscriptionId,
            object: 'subscription',
            status: 'active',
            cancel_at_period_end: false,
            metadata: { userId: id, tierId: '3', billingType: 'subscription' },
          }),
        )
      ).body.outcome,
    ).toBe('no change');
  });

  it('refuses a second subscription: cancels it at Stripe and refunds its invoice, keeping the first', async () => {
    const { client, id } = await member(server);
    const first = `sub_${uid()}`;
    const second = `sub_${uid()}`;
    await deliver(
      server,
      signed('invoice.paid', paidInvoice(id, 1, first, new Date().toISOString())),
    );
    const paymentIntent = `pi_${uid()}`;
    const paid = paidInvoice(id, 2, second, new Date().toISOString(), { paymentIntent });
    const answer = await deliver(server, signed('invoice.paid', paid));
    expect(answer.body.outcome).toBe(
      'refunded: a second subscription, cancelled (the account has one already)',
    );
    expect(calls('DELETE', `/v1/subscriptions/${second}`)).toHaveLength(1);
    const refund = double.requests.filter(
      (r) => r.path === '/v1/refunds' && r.body.get('payment_intent') === paymentIntent,
    );
    expect(refund).toHaveLength(1);
    expect(refund[0]!.headers['idempotency-key']).toBe(`refund-invoice-${paid.id}`);
    // Stripe then reports the second one deleted: the first goes on.
    expect(
      (
        await deliver(
          server,
          signed('customer.subscription.deleted', {
            id: second,
            object: 'subscription',
            status: 'canceled',
            metadata: { userId: id, tierId: '2', billingType: 'subscription' },
          }),
        )
      ).body.outcome,
    ).toBe('not the subscription of the account');
    expect((await me(client)).subscription).toMatchObject({
      tierName: 'Starter',
      status: 'active',
    });
    expect((await me(client)).remainingCredits).toBe(70);
  });

  it('refunds an invoice that reaches us after its subscription ended', async () => {
    const { client, id } = await member(server);
    const subscriptionId = `sub_${uid()}`;
    const metadata = { userId: id, tierId: '1', billingType: 'subscription' };
    await deliver(
      server,
      signed('invoice.paid', paidInvoice(id, 1, subscriptionId, new Date().toISOString())),
    );
    await deliver(
      server,
      signed('customer.subscription.deleted', {
        id: subscriptionId,
        object: 'subscription',
        status: 'canceled',
        metadata,
      }),
    );
    const paymentIntent = `pi_${uid()}`;
    const late = paidInvoice(id, 1, subscriptionId, '2027-01-01T00:00:00Z', {
      paymentIntent,
    });
    expect((await deliver(server, signed('invoice.paid', late))).body.outcome).toBe(
      'refunded: the subscription had ended',
    );
    const refunded = double.requests.filter(
      (r) => r.path === '/v1/refunds' && r.body.get('payment_intent') === paymentIntent,
    );
    expect(refunded).toHaveLength(1);
    expect((await me(client)).subscription).toBeNull();
  });

  it('cancels the subscription at Stripe before deleting an account, and refunds a later invoice once', async () => {
    const { client, id } = await member(server);
    const subscriptionId = `sub_${uid()}`;
    await deliver(
      server,
      signed('invoice.paid', paidInvoice(id, 1, subscriptionId, new Date().toISOString())),
    );
    expect((await client.delete('/api/me')).status).toBe(200);
    expect(calls('DELETE', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);

    // An invoice Stripe had already under way is paid after the account closed.
    const paymentIntent = `pi_${uid()}`;
    const late = paidInvoice(id, 1, subscriptionId, '2027-01-01T00:00:00Z', {
      paymentIntent,
    });
    const event = signed('invoice.paid', late);
    expect((await deliver(server, event)).body.outcome).toBe('refunded: account closed');
    expect((await deliver(server, event)).body.duplicate).toBe(true);
    expect((await deliver(server, event)).body.duplicate).toBe(true);
    const refundsOf = () =>
      double.requests.filter(
        (r) => r.path === '/v1/refunds' && r.body.get('payment_intent') === paymentIntent,
      );
    expect(refundsOf()).toHaveLength(1);
    expect(refundsOf()[0]!.body.get('metadata[reason]')).toBe('account_closed');
    // Another event about the same invoice asks again with the same key: Stripe refunds once.
    await deliver(server, signed('invoice.paid', late));
    expect(new Set(refundsOf().map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`refund-invoice-${late.id}`]),
    );
  });
  it('leaves the ledger verified: the read models equal a replay of the log', async () => {
    const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
    expect(report.differences).toEqual([]);
    expect(report.behind).toEqual([]);
  });
});
