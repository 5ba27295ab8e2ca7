/** Money going back or stopping: refunds decided on the write side (also with the projector stopped, also of subscription payments), and money that must stop, through Stripe's API. */
import { randomUUID } from 'node:crypto';
import { postgresReachable } from '@astra/event-store/testing';
import { verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditEvents,
  eventsOf,
  ledgerTypes,
  member,
  signed,
  WEBHOOK_SECRET,
} from './moneyFixtures.ts';
import {
  deliver,
  me,
  packCheckout,
  paidInvoice,
  refundedCharge,
  refundedInvoiceCharge,
  uid,
} from './stripeWebhooks.ts';
import {
  eventCount,
  type StripeRequest,
  startStripeDouble,
  startTestServer,
  type TestServer,
} from './support.ts';

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
    await server.deps.ledger.handle(
      'credits',
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
    expect((await server.deps.ledger.load('credits', userId)).state.balance).toBe(0);
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

describe('refunds of subscription payments, through Stripe’s API (a loopback double)', () => {
  let server: TestServer;
  let double: Awaited<ReturnType<typeof startStripeDouble>>;
  /** Stripe's invoices by the payment intent that paid them. */
  const invoices = new Map<string, Record<string, unknown>>();
  /** Payment intents whose invoice Stripe lists by id only (not expanded). */
  const unexpanded = new Set<string>();

  const answer = ({ method, path }: StripeRequest): unknown => {
    const [route, query] = path.split('?');
    if (method === 'GET' && route === '/v1/invoice_payments') {
      const paymentIntent = new URLSearchParams(query).get('payment[payment_intent]') ?? '';
      const invoice = invoices.get(paymentIntent);
      return {
        object: 'list',
        url: '/v1/invoice_payments',
        has_more: false,
        data: invoice
          ? [
              {
                id: `inpay_${uid()}`,
                object: 'invoice_payment',
                status: 'paid',
                is_default: true,
                amount_paid: invoice.amount_paid,
                currency: 'usd',
                invoice: unexpanded.has(paymentIntent) ? invoice.id : invoice,
                payment: { type: 'payment_intent', payment_intent: paymentIntent },
              },
            ]
          : [],
      };
    }
    const invoice = route!.match(/^\/v1\/invoices\/(in_[^/]+)$/);
    if (method === 'GET' && invoice) return [...invoices.values()].find((i) => i.id === invoice[1]);
    const subscription = route!.match(/^\/v1\/subscriptions\/(sub_[^/]+)$/);
    if (method === 'DELETE' && subscription)
      return { id: subscription[1], object: 'subscription', status: 'canceled' };
    if (method === 'POST' && route === '/v1/refunds')
      return { id: `re_${uid()}`, object: 'refund', status: 'succeeded' };
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

  /** A paid month of Starter: its invoice is delivered, and Stripe knows it by its payment. */
  const paidMonth = async (userId: string, subscriptionId = `sub_${uid()}`) => {
    const paymentIntent = `pi_${uid()}`;
    const invoice = paidInvoice(userId, 1, subscriptionId, '2026-11-21T10:00:00Z', {
      paymentIntent,
    });
    invoices.set(paymentIntent, invoice);
    return { invoice, paymentIntent, subscriptionId };
  };
  const lookups = (paymentIntent: string) =>
    double.requests.filter(
      (r) =>
        r.method === 'GET' &&
        r.path.startsWith('/v1/invoice_payments?') &&
        new URLSearchParams(r.path.split('?')[1]).get('payment[payment_intent]') === paymentIntent,
    );

  it('records a partial refund, then only the new money of the rest; credits are kept; a redelivery records nothing', async () => {
    const { client, id } = await member(server);
    const { invoice, paymentIntent, subscriptionId } = await paidMonth(id);
    expect((await deliver(server, signed('invoice.paid', invoice))).body.outcome).toBe('renewed');

    const partial = refundedInvoiceCharge(paymentIntent, 999, 300);
    const first = signed('charge.refunded', partial);
    expect((await deliver(server, first)).body.outcome).toBe(
      'refund recorded: subscription credits kept',
    );
    // The invoice found by its payment intent, expanded in the one request.
    const [lookup] = lookups(paymentIntent);
    expect(Object.fromEntries(new URLSearchParams(lookup!.path.split('?')[1]))).toMatchObject({
      'payment[type]': 'payment_intent',
      'payment[payment_intent]': paymentIntent,
      'expand[0]': 'data.invoice',
    });
    expect((await deliver(server, first)).body.duplicate).toBe(true);
    // Another event with the same refunded total: nothing more.
    expect((await deliver(server, signed('charge.refunded', partial))).body.outcome).toBe(
      'refund already recorded',
    );
    const rest = { ...partial, amount_refunded: 999, refunded: true };
    expect((await deliver(server, signed('charge.refunded', rest))).body.outcome).toBe(
      'refund recorded: subscription credits kept',
    );

    const money = { paymentIntentId: paymentIntent, chargeId: partial.id, currency: 'usd' };
    const ids = { invoiceId: invoice.id, subscriptionId };
    expect(await eventsOf(server, id, 'PaymentRefunded')).toEqual([
      { ...money, amountMinor: 300, refundedMinor: 300, ...ids },
      { ...money, amountMinor: 699, refundedMinor: 999, ...ids },
    ]);
    expect(await eventsOf(server, id, 'PurchaseReversed')).toEqual([]);
    // The month's credits stay: 60 and the free 10.
    const mine = await me(client);
    expect(mine.remainingCredits).toBe(70);
    expect(mine.creditLots).toMatchObject({ subscription: 60, free: 10 });
    expect((await ledgerTypes(client)).filter(([type]) => type === 'PaymentRefunded')).toEqual([
      ['PaymentRefunded', 0],
      ['PaymentRefunded', 0],
    ]);
  });

  it('gives back the tax of a taxed month with its refunds, all of it with the last', async () => {
    const { id } = await member(server);
    const { invoice, paymentIntent } = await paidMonth(id);
    const taxed = {
      ...invoice,
      total_taxes: [{ amount: 160, tax_rate_details: { tax_rate: { percentage: 19 } } }],
      customer_address: { country: 'DE' },
    };
    invoices.set(paymentIntent, taxed);
    await deliver(server, signed('invoice.paid', taxed));
    const partial = refundedInvoiceCharge(paymentIntent, 999, 500);
    await deliver(server, signed('charge.refunded', partial));
    await deliver(server, signed('charge.refunded', { ...partial, amount_refunded: 999 }));
    const tax = { country: 'DE', ratePercent: 19 };
    // 160 × 500 ÷ 999 = 80.08…: 80, then the rest, 80.
    expect(
      (await eventsOf(server, id, 'PaymentRefunded')).map((e) => [e.amountMinor, e.tax]),
    ).toEqual([
      [500, { amountMinor: 80, ...tax }],
      [499, { amountMinor: 80, ...tax }],
    ]);
  });

  it('fetches the invoice when Stripe lists it by id only', async () => {
    const { id } = await member(server);
    const { invoice, paymentIntent } = await paidMonth(id);
    unexpanded.add(paymentIntent);
    await deliver(server, signed('invoice.paid', invoice));
    const charge = refundedInvoiceCharge(paymentIntent, 999, 999);
    expect((await deliver(server, signed('charge.refunded', charge))).body.outcome).toBe(
      'refund recorded: subscription credits kept',
    );
    expect(
      double.requests.filter(
        (r) => r.method === 'GET' && r.path.startsWith(`/v1/invoices/${invoice.id}`),
      ),
    ).toHaveLength(1);
    expect(await eventsOf(server, id, 'PaymentRefunded')).toMatchObject([
      { amountMinor: 999, refundedMinor: 999, invoiceId: invoice.id },
    ]);
  });

  it('records the refund of an invoice this account was never credited for as refused, and nothing on the ledger', async () => {
    // A second subscription's invoice: refused, cancelled and refunded by us; Stripe then
    // reports the charge refunded. Its payment was never booked, so neither is its refund.
    const { id } = await member(server);
    const running = await paidMonth(id);
    await deliver(server, signed('invoice.paid', running.invoice));
    const second = await paidMonth(id);
    expect((await deliver(server, signed('invoice.paid', second.invoice))).body.outcome).toBe(
      'refunded: a second subscription, cancelled (the account has one already)',
    );
    const before = await creditEvents(server, id);
    const charge = refundedInvoiceCharge(second.paymentIntent, 999, 999);
    expect((await deliver(server, signed('charge.refunded', charge))).body.outcome).toBe(
      'refused: unknown_payment',
    );
    expect(await creditEvents(server, id)).toEqual(before);
  });

  it('leaves a refunded charge that paid neither a pack nor an invoice alone', async () => {
    const before = await eventCount(server);
    const paymentIntent = `pi_${uid()}`;
    const charge = refundedInvoiceCharge(paymentIntent, 500, 500);
    expect((await deliver(server, signed('charge.refunded', charge))).body).toMatchObject({
      outcome: 'not a purchase of ours',
    });
    expect(lookups(paymentIntent)).toHaveLength(1);
    expect(await eventCount(server)).toBe(before + 1); // its `stripe-{id}` record only
  });

  it('leaves the ledger verified: the read models equal a replay of the log', async () => {
    const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
    expect(report.differences).toEqual([]);
    expect(report.behind).toEqual([]);
  });
});
