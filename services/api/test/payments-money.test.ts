import { randomUUID } from 'node:crypto';
import { postgresReachable } from '@astra/event-store/testing';
import { verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  me,
  member as memberOf,
  packCheckout,
  paidInvoice,
  refundedCharge,
  uid,
  webhookSigner,
} from './stripeWebhooks.ts';
import {
  type Client,
  eventCount,
  type StripeRequest,
  startStripeDouble,
  startTestServer,
  type TestServer,
} from './support.ts';

/** Money correctness: one plan per account, refunds on the write side, money that must stop. */

const WEBHOOK_SECRET = 'whsec_test_money_secret';
const signed = webhookSigner(WEBHOOK_SECRET);
const member = (server: TestServer) => memberOf(server, 'money');

const ledgerTypes = async (client: Client) =>
  ((await client.get('/api/me/ledger')).body.items as { type: string; amount: number }[]).map(
    (e) => [e.type, e.amount],
  );

describe('the local checkout: one payment per session, one plan per account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('pays a checkout session once however many pay it at the same time', async () => {
    const { client } = await member(server);
    const checkout = await client.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect(checkout.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.post(`/api/checkout/local/${checkout.body.sessionId}/pay`),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([404, 409]).toContain(refused.status);
      expect(['not_found', 'payment_in_progress']).toContain(refused.body.error);
      expect(refused.body.message).toMatch(/checkout/i);
    }
    const mine = await me(client);
    expect(mine.remainingCredits).toBe(70); // one month of Starter, 60, and the free 10
    expect(
      (await ledgerTypes(client)).filter(([type]) => type === 'MonthlyCreditsGranted'),
    ).toEqual([['MonthlyCreditsGranted', 60]]);
    expect(mine.creditLots).toEqual({ subscription: 60, free: 10, purchased: 0, promotional: 0 });
    expect(mine.subscription).toMatchObject({ rolloverCredits: 60, forfeitAtRenewal: 0 });
    expect((await client.get('/api/subscription')).body).toMatchObject({
      forfeitAtRenewal: 0,
      creditLots: { subscription: 60, free: 10 },
    });
  });

  it('starts one subscription checkout of two started at once; a subscriber changes plans instead', async () => {
    const { client } = await member(server);
    const both = await Promise.all([
      client.post('/api/checkout', { tierId: 1, isSubscription: true }),
      client.post('/api/checkout', { tierId: 2, isSubscription: true }),
    ]);
    const started = both.find((a) => a.status === 200)!;
    const refused = both.find((a) => a.status !== 200)!;
    expect(started).toBeDefined();
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: 'checkout_in_progress',
        url: started.body.url,
        sessionId: started.body.sessionId,
      },
    });
    // Once closed (the page's cancel), another may start.
    await client.post(`/api/checkout/local/${started.body.sessionId}/cancel`);
    const again = await client.post('/api/checkout', { tierId: 3, isSubscription: true });
    expect(again.status).toBe(200);
    expect((await client.post(`/api/checkout/local/${again.body.sessionId}/pay`)).status).toBe(200);

    const second = await client.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('subscription_active');
    expect(second.body.message).toBe(
      'You already have the Stargazer plan. To switch, change your plan instead of subscribing again.',
    );
    // A pack is still fine.
    expect((await client.post('/api/checkout', { tierId: 1, isSubscription: false })).status).toBe(
      200,
    );
    // A cancelled subscription still runs until its period ends: still no second one.
    expect((await client.post('/api/subscription/cancel', {})).status).toBe(200);
    expect(
      (await client.post('/api/checkout', { tierId: 1, isSubscription: true })).body.error,
    ).toBe('subscription_active');
  });

  it('changes plans from the next renewal, validating on the write side first', async () => {
    const { client } = await member(server);
    expect((await client.post('/api/subscription/change', { tierId: 2 })).body.error).toBe(
      'no_active_subscription',
    );
    const checkout = await client.post('/api/checkout', { tierId: 1, isSubscription: true });
    await client.post(`/api/checkout/local/${checkout.body.sessionId}/pay`);
    const unknown = await client.post('/api/subscription/change', { tierId: 99 });
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(unknown.body.fields[0].field).toBe('tierId');
    expect((await client.post('/api/subscription/change', { tierId: 1 })).body).toMatchObject({
      error: 'same_plan',
      message: 'You are already on the Starter plan.',
    });
    const renewal = (await me(client)).subscription.nextRenewalDate;
    const changed = await client.post('/api/subscription/change', { tierId: 2 });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toMatch(/^Your plan changes to Explorer from \w+ \d+, \d{4}: /);
    expect(changed.body.message).toMatch(/Nothing is charged now/);
    expect(changed.body.subscription).toMatchObject({
      subscriptionTier: 'Explorer',
      creditsPerMonth: 130,
      nextRenewalDate: renewal,
    });
    // No money moved and no credits: the balance is what it was.
    expect(changed.body.subscription.creditsRemaining).toBe(70);
  });
  it('leaves the ledger verified: the read models equal a replay of the log', async () => {
    const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
    expect(report.differences).toEqual([]);
    expect(report.behind).toEqual([]);
  });
});

describe('webhook signatures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('refuses a signature dated more than 5 minutes ahead, writing nothing', async () => {
    const { id } = await member(server);
    const before = await eventCount(server);
    const ahead = signed('checkout.session.completed', packCheckout(id, 2), {
      timestamp: Math.floor(Date.now() / 1000) + 600,
    });
    const answer = await deliver(server, ahead);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_signature');
    expect(answer.body.message).toMatch(/in the future/);
    expect(await eventCount(server)).toBe(before);
    // A little ahead (clocks drift) is fine.
    const near = signed('checkout.session.completed', packCheckout(id, 2), {
      timestamp: Math.floor(Date.now() / 1000) + 60,
    });
    expect((await deliver(server, near)).body.outcome).toBe('granted');
  });
});

describe('pricing says only true things', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PRICING_CURRENCY: 'eur' });
  });
  afterAll(() => server?.close());

  it('names its currency, and no one-time row promises monthly benefits', async () => {
    const { body } = await server.client().get('/api/pricing');
    expect(body.currency).toBe('eur');
    for (const tier of body.tiers) {
      expect(tier.features).toBeUndefined();
      const pack = tier.rows.find((r: { billingType: string }) => r.billingType === 'one_time');
      const monthly = tier.rows.find(
        (r: { billingType: string }) => r.billingType === 'subscription',
      );
      expect(pack.features.length).toBeGreaterThan(0);
      for (const line of pack.features)
        expect(line).not.toMatch(/month|roll(s|ed)? ?over|cancel anytime|renewal/i);
      expect(pack.features[0]).toBe(`${pack.creditsIncluded} credits that never expire`);
      expect(monthly.features[0]).toBe(`${monthly.creditsIncluded} credits every month`);
      expect(monthly.features.join(' ')).toMatch(/up to one month .* rolls over/i);
    }
  });
});

describe('refunds on the write side', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('applies a refund that arrives before its purchase when the purchase lands', async () => {
    const { client, id } = await member(server);
    const session = packCheckout(id, 2);
    const refund = refundedCharge(id, session.payment_intent, 1799, 1799);
    expect((await deliver(server, signed('charge.refunded', refund))).body.outcome).toBe(
      'refund pending: reversed when its purchase arrives',
    );
    expect(
      (await deliver(server, signed('checkout.session.completed', session))).body.outcome,
    ).toBe('granted');
    expect((await me(client)).remainingCredits).toBe(10); // 10 + 100 granted − 100 reversed
  });

  it('reverses partial refunds in proportion, cumulatively, and a redelivery changes nothing', async () => {
    const { client, id } = await member(server);
    const session = packCheckout(id, 2); // Explorer pack: 100 credits
    await deliver(server, signed('checkout.session.completed', session));
    const first = refundedCharge(id, session.payment_intent, 1799, 540); // 30%
    expect((await deliver(server, signed('charge.refunded', first))).body.outcome).toBe('reversed');
    expect((await me(client)).remainingCredits).toBe(80); // 110 − floor(100 × 540 / 1799) = 30
    const redelivered = signed('charge.refunded', first);
    expect((await deliver(server, redelivered)).body.outcome).toBe('already reversed');
    expect((await deliver(server, redelivered)).body.duplicate).toBe(true);
    const rest = { ...first, amount_refunded: 1799, refunded: true };
    expect((await deliver(server, signed('charge.refunded', rest))).body.outcome).toBe('reversed');
    expect((await me(client)).remainingCredits).toBe(10);
    expect((await ledgerTypes(client)).filter(([type]) => type === 'PurchaseReversed')).toEqual([
      ['PurchaseReversed', -70],
      ['PurchaseReversed', -30],
    ]);
    expect((await deliver(server, signed('charge.refunded', rest))).body.outcome).toBe(
      'already reversed',
    );
    expect((await me(client)).remainingCredits).toBe(10);
  });

  it('records a charge without our metadata as not a purchase of ours', async () => {
    const foreign = { ...refundedCharge('x', `pi_${uid()}`, 999, 999), metadata: {} };
    const answer = await deliver(server, signed('charge.refunded', foreign));
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'not a purchase of ours' } });
  });
  it('leaves the ledger verified: the read models equal a replay of the log', async () => {
    const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
    expect(report.differences).toEqual([]);
    expect(report.behind).toEqual([]);
  });
});

describe('refunds while the projector is stopped', () => {
  let server: TestServer | undefined;
  beforeAll(async () => {
    if (!(await postgresReachable())) return; // the external projector needs PostgreSQL
    // No projector runs: the read models stay empty, the write side is all there is.
    server = await startTestServer(
      {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PROJECTOR: 'external',
        READ_YOUR_WRITES_TIMEOUT_MS: '0',
      },
      'postgres',
    );
  });
  afterAll(() => server?.close());

  it('reverses a refund whose purchase the read models do not show yet', async (context) => {
    if (!server) return context.skip();
    const userId = randomUUID();
    await server.deps.ledger.credits(
      userId,
      { type: 'OpenAccount', userId },
      { actor: { kind: 'system' }, correlationId: userId },
    );
    const session = packCheckout(userId, 2);
    expect(
      (await deliver(server, signed('checkout.session.completed', session))).body.outcome,
    ).toBe('granted');
    const refund = refundedCharge(userId, session.payment_intent, 1799, 1799);
    const answer = await deliver(server, signed('charge.refunded', refund));
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'reversed' } });
    expect((await server.deps.ledger.creditAccountOf(userId)).state.balance).toBe(0);
  });
});

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
