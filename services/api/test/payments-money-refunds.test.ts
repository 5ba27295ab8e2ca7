/** Refunds decided on the write side: while the projector is stopped, and of subscription payments through Stripe's API. */
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
