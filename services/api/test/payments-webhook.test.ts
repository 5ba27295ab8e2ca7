/** The Stripe webhook as a command source of the ledger: purchases, renewals, refunds, cancellations, signatures. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoice, member, signed, WEBHOOK_SECRET } from './paymentsFixtures.ts';
import { forms } from './readingForms.ts';
import { deliver, me, signedPayload, uid } from './stripeWebhooks.ts';
import { type Client, caughtUp, eventCount, startTestServer, type TestServer } from './support.ts';

const checkoutSession = (
  userId: string,
  tierId: number,
  overrides: Record<string, unknown> = {},
) => ({
  id: `cs_test_${uid()}`,
  object: 'checkout.session',
  mode: 'payment',
  status: 'complete',
  payment_status: 'paid',
  client_reference_id: userId,
  metadata: { userId, tierId: String(tierId), billingType: 'one_time' },
  payment_intent: `pi_test_${uid()}`,
  customer: `cus_test_${uid()}`,
  // Amounts in an event are never trusted: credits come from our tier table.
  amount_total: 1,
  currency: 'usd',
  ...overrides,
});

const subscription = (
  userId: string,
  tierId: number,
  id: string,
  changes: Record<string, unknown>,
) => ({
  id,
  object: 'subscription',
  status: 'active',
  cancel_at_period_end: false,
  metadata: { userId, tierId: String(tierId), billingType: 'subscription' },
  ...changes,
});

const ledgerOf = async (client: Client) =>
  (await client.get('/api/me/ledger')).body.items as {
    type: string;
    amount: number;
    balanceAfter: number;
    reference: Record<string, string> | null;
  }[];

describe('the Stripe webhook as a command source of the ledger', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('grants a one-time tier’s credits from our table when a checkout is paid, once, traceable to Stripe', async () => {
    const { client, id } = await member(server);
    const session = checkoutSession(id, 2);
    const answer = await deliver(server, signed('checkout.session.completed', session));
    expect(answer).toMatchObject({ status: 200, body: { received: true, outcome: 'granted' } });
    // The same session again, by async_payment_succeeded: no second grant.
    expect(
      (await deliver(server, signed('checkout.session.async_payment_succeeded', session))).body
        .outcome,
    ).toBe('already granted');
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(110); // Explorer pack: 100
    const grant = (await ledgerOf(client)).find((e) => e.type === 'CreditsGranted')!;
    expect(grant).toMatchObject({
      amount: 100,
      reference: {
        checkoutSessionId: session.id,
        paymentIntentId: session.payment_intent,
        customerId: session.customer,
      },
    });
  });

  it('grants nothing for an unpaid checkout or a subscription checkout', async () => {
    const { client, id } = await member(server);
    expect(
      (
        await deliver(
          server,
          signed(
            'checkout.session.completed',
            checkoutSession(id, 1, { payment_status: 'unpaid' }),
          ),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await deliver(
          server,
          signed(
            'checkout.session.completed',
            checkoutSession(id, 1, { mode: 'subscription', payment_intent: null }),
          ),
        )
      ).status,
    ).toBe(200);
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(10);
  });

  it('applies the same event delivered 10 times concurrently once', async () => {
    const { client, id } = await member(server);
    const event = signed('checkout.session.completed', checkoutSession(id, 4), {
      id: `evt_${randomUUID()}`,
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(server, event)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(330); // Celestial Pro pack: 320
    expect((await ledgerOf(client)).filter((e) => e.type === 'CreditsGranted')).toHaveLength(1);
  });

  it('renews a subscription by invoice.paid with the rollover rule, in any order, and ends it', async () => {
    const { client, id } = await member(server);
    const subscriptionId = `sub_${randomUUID()}`;
    // invoice.paid first (before any checkout event): the subscription's metadata is enough.
    const first = invoice(id, 1, subscriptionId, '2026-11-21T10:00:00Z');
    expect((await deliver(server, signed('invoice.paid', first))).body.outcome).toBe('renewed');
    expect(
      (
        await deliver(
          server,
          signed(
            'checkout.session.completed',
            checkoutSession(id, 1, {
              mode: 'subscription',
              subscription: subscriptionId,
              payment_intent: null,
            }),
          ),
        )
      ).status,
    ).toBe(200);
    await caughtUp(server);
    let mine = await me(client);
    expect(mine.remainingCredits).toBe(70); // 60 + min(10, 60)
    expect(mine.subscription).toMatchObject({
      tierName: 'Starter',
      status: 'active',
      creditsPerMonth: 60,
    });
    expect((await ledgerOf(client))[0]).toMatchObject({
      type: 'MonthlyCreditsGranted',
      amount: 60,
      reference: { invoiceId: first.id, subscriptionId },
    });

    // A second month: the 60 subscription credits roll over (at most one month's); the free 10
    // never count against the cap: 10 + 60 + 60 = 130.
    expect(
      (
        await deliver(
          server,
          signed('invoice.paid', invoice(id, 1, subscriptionId, '2026-12-21T10:00:00Z')),
        )
      ).body.outcome,
    ).toBe('renewed');
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(130);
    // A third: 120 subscription credits, one month (60) rolls over, the other 60 are forfeited.
    expect(
      (
        await deliver(
          server,
          signed('invoice.paid', invoice(id, 1, subscriptionId, '2027-01-21T10:00:00Z')),
        )
      ).body.outcome,
    ).toBe('renewed');
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(130);
    expect((await ledgerOf(client)).slice(0, 2).map((e) => [e.type, e.amount])).toEqual([
      ['MonthlyCreditsGranted', 60],
      ['RolloverForfeited', -60],
    ]);
    // The same invoice again grants nothing.
    expect((await deliver(server, signed('invoice.paid', first))).body.outcome).toBe(
      'month already granted',
    );

    expect(
      (
        await deliver(
          server,
          signed(
            'customer.subscription.updated',
            subscription(id, 1, subscriptionId, { cancel_at_period_end: true }),
          ),
        )
      ).body.outcome,
    ).toBe('cancelled at period end');
    await caughtUp(server);
    expect((await me(client)).subscription).toMatchObject({ status: 'cancelled' });
    expect(
      (
        await deliver(
          server,
          signed(
            'customer.subscription.deleted',
            subscription(id, 1, subscriptionId, { status: 'canceled' }),
          ),
        )
      ).body.outcome,
    ).toBe('ended');
    await caughtUp(server);
    mine = await me(client);
    expect(mine.subscription).toBeNull();
    expect(mine.remainingCredits).toBe(130); // credits stay
  });

  it('takes a refunded purchase back, never below zero, recording what was already spent', async () => {
    const { client, id } = await member(server);
    const session = checkoutSession(id, 2);
    await deliver(server, signed('checkout.session.completed', session));
    await caughtUp(server);
    const spent = await client.post('/api/readings/natal-chart', forms['natal-chart']);
    expect(spent.status).toBe(201);
    for (let i = 0; i < 3; i++)
      expect((await client.post('/api/readings/natal-chart', forms['natal-chart'])).status).toBe(
        201,
      );
    expect((await me(client)).remainingCredits).toBe(14); // 110 - 4 × 24

    const charge = {
      id: `ch_${randomUUID()}`,
      object: 'charge',
      amount: 1799,
      amount_refunded: 1799,
      refunded: true,
      currency: 'usd',
      payment_intent: session.payment_intent,
      // Stripe copies the payment intent's metadata (our checkout's) onto its charge.
      metadata: { userId: id, tierId: '2', billingType: 'one_time' },
    };
    const refunded = signed('charge.refunded', charge);
    expect((await deliver(server, refunded)).body.outcome).toBe('reversed');
    expect((await deliver(server, refunded)).body.duplicate).toBe(true);
    // Another event about the same charge reverses nothing more.
    expect((await deliver(server, signed('charge.refunded', charge))).body.outcome).toBe(
      'already reversed',
    );
    await caughtUp(server);
    expect((await me(client)).remainingCredits).toBe(0);
    expect((await ledgerOf(client))[0]).toMatchObject({
      type: 'PurchaseReversed',
      amount: -14,
      balanceAfter: 0,
      reference: { chargeId: charge.id },
    });
    // A refund that adds nothing to what was refunded already takes nothing more.
    const partial = { ...charge, refunded: false, amount_refunded: 500 };
    expect((await deliver(server, signed('charge.refunded', partial))).body.outcome).toBe(
      'already reversed',
    );
  });

  it('leaves a refunded charge that paid no credit pack of ours and no invoice alone, at once', async () => {
    // No pack's metadata on it; a subscription invoice's would be found through the gateway, but
    // the local one keeps no invoices (the loopback tests of payments-money.test.ts find one).
    const charge = {
      id: `ch_${randomUUID()}`,
      object: 'charge',
      refunded: true,
      amount: 100,
      amount_refunded: 100,
      currency: 'usd',
      payment_intent: `pi_unknown_${randomUUID()}`,
      metadata: {},
    };
    const answer = await deliver(server, signed('charge.refunded', charge));
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'not a purchase of ours' } });
  });

  it('keeps a cancellation Stripe reports before the first invoice', async () => {
    const { client, id } = await member(server);
    const subscriptionId = `sub_${randomUUID()}`;
    await deliver(
      server,
      signed(
        'customer.subscription.updated',
        subscription(id, 2, subscriptionId, { cancel_at_period_end: true }),
      ),
    );
    await deliver(
      server,
      signed('invoice.paid', invoice(id, 2, subscriptionId, '2026-11-21T10:00:00Z')),
    );
    await caughtUp(server);
    const mine = await me(client);
    expect(mine.subscription).toMatchObject({ tierName: 'Explorer', status: 'cancelled' });
  });

  it('answers unknown event types 200 and changes nothing', async () => {
    const before = await eventCount(server);
    const answer = await deliver(
      server,
      signed('customer.created', { id: 'cus_1', object: 'customer' }),
    );
    expect(answer).toMatchObject({ status: 200, body: { received: true, ignored: true } });
    expect(await eventCount(server)).toBe(before);
  });

  it('refuses bad signatures, stale timestamps and unparseable bodies with 400, writing nothing', async () => {
    const { id } = await member(server);
    const before = await eventCount(server);
    const session = checkoutSession(id, 2);
    const wrongSecret = signed('checkout.session.completed', session, { secret: 'whsec_wrong' });
    const stale = signed('checkout.session.completed', session, {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const tampered = {
      ...signed('checkout.session.completed', session),
      payload: JSON.stringify({ tampered: true }),
    };
    const garbage = '{not json';
    const garbageHeader = signedPayload(garbage, WEBHOOK_SECRET);
    for (const [event, error] of [
      [wrongSecret, 'invalid_signature'],
      [stale, 'invalid_signature'],
      [tampered, 'invalid_signature'],
      [{ payload: garbage, header: garbageHeader }, 'invalid_payload'],
      [{ payload: '{}', header: '' }, 'invalid_signature'],
    ] as const) {
      const answer = await deliver(server, event);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(error);
    }
    expect(await eventCount(server)).toBe(before);
  });
});
