/** Money coming in: one payment per checkout session, one plan per account, signed webhooks only, honest pricing, what was paid and the Stripe ids behind it on the ledger. */
import { randomUUID } from 'node:crypto';
import { verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, ledgerTypes, member, signed, WEBHOOK_SECRET } from './moneyFixtures.ts';
import {
  deliver,
  me,
  packCheckout,
  paidInvoice,
  refundedCharge,
  refundedInvoiceCharge,
  uid,
} from './stripeWebhooks.ts';
import { eventCount, startTestServer, type TestServer } from './support.ts';

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

describe('money on the ledger: what was paid, and the Stripe ids behind it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('records a pack’s amount and every id of its checkout session on the grant', async () => {
    const { client, id } = await member(server);
    const session = packCheckout(id, 2, { amountTotal: 1650, currency: 'eur' });
    const event = signed('checkout.session.completed', session);
    expect((await deliver(server, event)).body.outcome).toBe('granted');
    const eventId = JSON.parse(event.payload).id;
    const reference = {
      checkoutSessionId: session.id,
      paymentIntentId: session.payment_intent,
      customerId: session.customer,
      stripeEventId: eventId,
    };
    expect(await eventsOf(server, id, 'CreditsGranted')).toEqual([
      expect.objectContaining({
        amount: 100,
        reference,
        // Stripe's amount (a coupon, a currency of its own), never our price table's 17.99.
        payment: { amountMinor: 1650, currency: 'eur' },
      }),
    ]);
    const entries = (await client.get('/api/me/ledger')).body.items;
    expect(entries.find((e: { type: string }) => e.type === 'CreditsGranted').reference).toEqual(
      reference,
    );
  });

  it('records a month’s amount, invoice, subscription, payment and customer on the grant', async () => {
    const { id } = await member(server);
    const subscriptionId = `sub_${uid()}`;
    const paymentIntent = `pi_${uid()}`;
    const invoice = paidInvoice(id, 1, subscriptionId, '2026-11-21T10:00:00Z', {
      paymentIntent,
      amountPaid: 899,
    });
    expect((await deliver(server, signed('invoice.paid', invoice))).body.outcome).toBe('renewed');
    expect(await eventsOf(server, id, 'MonthlyCreditsGranted')).toEqual([
      expect.objectContaining({
        amount: 60,
        reference: {
          invoiceId: invoice.id,
          subscriptionId,
          paymentIntentId: paymentIntent,
          customerId: invoice.customer,
        },
        payment: { amountMinor: 899, currency: 'usd' },
      }),
    ]);
  });

  it('records the tax Stripe computed in a pack and in a month, and gives its share back with each refund', async () => {
    const { id } = await member(server);
    const paymentIntent = `pi_${uid()}`;
    const session = {
      ...packCheckout(id, 2, { paymentIntent, amountTotal: 1799, currency: 'eur' }),
      total_details: {
        amount_discount: 0,
        amount_shipping: 0,
        amount_tax: 287,
        breakdown: { discounts: [], taxes: [{ amount: 287, rate: { percentage: 19 } }] },
      },
      customer_details: { address: { country: 'DE' } },
    };
    expect(
      (await deliver(server, signed('checkout.session.completed', session))).body.outcome,
    ).toBe('granted');
    const tax = { country: 'DE', ratePercent: 19 };
    expect((await eventsOf(server, id, 'CreditsGranted'))[0]!.payment).toEqual({
      amountMinor: 1799,
      currency: 'eur',
      tax: { amountMinor: 287, ...tax },
    });
    // A third refunded, then the rest: the tax's share of each, all of it in the end.
    for (const refunded of [600, 1799]) {
      const charge = { ...refundedCharge(id, paymentIntent, 1799, refunded), currency: 'eur' };
      await deliver(server, signed('charge.refunded', charge));
    }
    expect(
      (await eventsOf(server, id, 'PaymentRefunded')).map((e) => [e.amountMinor, e.tax]),
    ).toEqual([
      [600, { amountMinor: 95, ...tax }],
      [1199, { amountMinor: 192, ...tax }],
    ]);

    // A month's invoice: its taxes added up, the rate of an expanded tax rate, the address's country.
    const subscriptionId = `sub_${uid()}`;
    const invoice = {
      ...paidInvoice(id, 1, subscriptionId, '2026-11-21T10:00:00Z', { amountPaid: 1190 }),
      total_taxes: [
        {
          amount: 190,
          tax_behavior: 'inclusive',
          tax_rate_details: { tax_rate: { id: 'txr_1', percentage: 19 } },
          taxability_reason: 'standard_rated',
          taxable_amount: 1000,
          type: 'tax_rate_details',
        },
      ],
      customer_address: { country: 'AT' },
    };
    await deliver(server, signed('invoice.paid', invoice));
    // An unexpanded rate (only its id) gives no rate.
    const unexpanded = {
      ...paidInvoice(id, 1, subscriptionId, '2026-12-21T10:00:00Z', { amountPaid: 1200 }),
      total_taxes: [{ amount: 200, tax_rate_details: { tax_rate: 'txr_2' } }],
      customer_address: { country: 'AT' },
    };
    await deliver(server, signed('invoice.paid', unexpanded));
    expect((await eventsOf(server, id, 'MonthlyCreditsGranted')).map((e) => e.payment.tax)).toEqual(
      [
        { amountMinor: 190, country: 'AT', ratePercent: 19 },
        { amountMinor: 200, country: 'AT', ratePercent: null },
      ],
    );
  });

  it('refuses a tax that is more than the amount paid, recording no credit', async () => {
    const { id } = await member(server);
    const session = {
      ...packCheckout(id, 2, { amountTotal: 100 }),
      total_details: { amount_tax: 101 },
    };
    expect(
      (await deliver(server, signed('checkout.session.completed', session))).body.outcome,
    ).toBe('refused: invalid data.object.total_details.amount_tax');
    const invoice = {
      ...paidInvoice(id, 1, `sub_${uid()}`, '2026-11-21T10:00:00Z', { amountPaid: 100 }),
      total_taxes: [{ amount: 60 }, { amount: 41 }],
    };
    expect((await deliver(server, signed('invoice.paid', invoice))).body.outcome).toBe(
      'refused: invalid data.object.total_taxes',
    );
    expect(await eventsOf(server, id, 'CreditsGranted')).toEqual([]);
    expect(await eventsOf(server, id, 'MonthlyCreditsGranted')).toEqual([]);
  });

  it('takes the charge of an older API version’s invoice, and no payment id the invoice does not name', async () => {
    const { id } = await member(server);
    const subscriptionId = `sub_${uid()}`;
    // Before 2025-03-31.basil the invoice named its payment intent and charge itself.
    const { payments: _payments, ...legacy } = paidInvoice(
      id,
      1,
      subscriptionId,
      '2026-11-21T10:00:00Z',
    );
    const older = { ...legacy, payment_intent: `pi_${uid()}`, charge: `ch_${uid()}` };
    await deliver(server, signed('invoice.paid', older));
    // Without `payments` (not included in the event) the month names what it has; nothing is
    // fetched for an id (this server has no Stripe to ask).
    const { payments: _none, ...bare } = paidInvoice(id, 1, subscriptionId, '2026-12-21T10:00:00Z');
    await deliver(server, signed('invoice.paid', bare));
    expect((await eventsOf(server, id, 'MonthlyCreditsGranted')).map((e) => e.reference)).toEqual([
      {
        invoiceId: older.id,
        subscriptionId,
        paymentIntentId: older.payment_intent,
        chargeId: older.charge,
        customerId: older.customer,
      },
      { invoiceId: bare.id, subscriptionId, customerId: bare.customer },
    ]);
  });

  it('reads old grants without amounts or ids as they were written', async () => {
    const userId = randomUUID();
    const context = { actor: { kind: 'system' as const }, correlationId: userId };
    await server.deps.ledger.handle('credits', userId, { type: 'OpenAccount', userId }, context);
    // A grant as written before money was recorded: no payment, a reference without customer.
    await server.deps.ledger.handle(
      'credits',
      userId,
      {
        type: 'GrantCredits',
        grantId: 'checkout:cs_old',
        kind: 'purchase',
        amount: 40,
        reason: 'Starter credit pack',
        tierId: 1,
        reference: { checkoutSessionId: 'cs_old', paymentIntentId: 'pi_old' },
      },
      context,
    );
    const refund = refundedCharge(userId, 'pi_old', 799, 799);
    expect((await deliver(server, signed('charge.refunded', refund))).body.outcome).toBe(
      'reversed',
    );
    expect((await server.deps.ledger.load('credits', userId)).state.balance).toBe(0);
    expect(await eventsOf(server, userId, 'CreditsGranted')).toEqual([
      expect.not.objectContaining({ payment: expect.anything() }),
    ]);
  });

  it('leaves a refunded charge alone when the local gateway finds no invoice for it', async () => {
    const before = await eventCount(server);
    const charge = refundedInvoiceCharge(`pi_${uid()}`, 999, 999);
    const answer = await deliver(server, signed('charge.refunded', charge));
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'not a purchase of ours' } });
    expect(await eventCount(server)).toBe(before + 1); // its `stripe-{id}` record only
  });
  it('leaves the ledger verified: the read models equal a replay of the log', async () => {
    const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
    expect(report.differences).toEqual([]);
    expect(report.behind).toEqual([]);
  });
});

describe('the local checkout records its own money like Stripe’s', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('records the amount and ids of a pack and of a subscription month paid on the local page', async () => {
    const { client, id } = await member(server);
    const pack = await client.post('/api/checkout', { tierId: 2, isSubscription: false });
    expect((await client.post(`/api/checkout/local/${pack.body.sessionId}/pay`)).status).toBe(200);
    const monthly = await client.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect((await client.post(`/api/checkout/local/${monthly.body.sessionId}/pay`)).status).toBe(
      200,
    );
    const [grant] = await eventsOf(server, id, 'CreditsGranted');
    // Its own amount: the row it sold (Explorer pack, 17.99), as the session it sends says.
    expect(grant).toMatchObject({
      amount: 100,
      payment: { amountMinor: 1799, currency: 'usd' },
      reference: {
        checkoutSessionId: pack.body.sessionId,
        paymentIntentId: expect.stringMatching(/^pi_local_/),
        stripeEventId: expect.stringMatching(/^evt_local_/),
      },
    });
    const [month] = await eventsOf(server, id, 'MonthlyCreditsGranted');
    expect(month).toMatchObject({
      amount: 60,
      payment: { amountMinor: 999, currency: 'usd' },
      reference: {
        invoiceId: expect.stringMatching(/^in_local_/),
        subscriptionId: expect.stringMatching(/^sub_local_/),
        paymentIntentId: expect.stringMatching(/^pi_local_/),
      },
    });
    // No country: no tax, as with Stripe Tax off.
    expect(grant!.payment.tax).toBeUndefined();
    expect(month!.payment.tax).toBeUndefined();
  });

  it('applies its tax table to the country the customer picks: the tax in the price, as Stripe Tax would', async () => {
    const { client, id } = await member(server);
    const pay = async (tierId: number, isSubscription: boolean, body: unknown) => {
      const checkout = await client.post('/api/checkout', { tierId, isSubscription });
      return client.post(`/api/checkout/local/${checkout.body.sessionId}/pay`, body);
    };
    const refused = await pay(2, false, { country: 'germany' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(refused.body.fields.map((f: { field: string }) => f.field)).toEqual(['country']);
    expect(await eventsOf(server, id, 'CreditsGranted')).toEqual([]);

    expect((await pay(2, false, { country: 'DE' })).status).toBe(200);
    expect((await pay(2, false, { country: 'US' })).status).toBe(200);
    expect((await pay(1, true, { country: 'FR' })).status).toBe(200);
    // 17.99 with 19% in it is 2.87 of tax; the US has none; 9.99 with 20% in it is 1.67.
    expect((await eventsOf(server, id, 'CreditsGranted')).map((e) => e.payment)).toEqual([
      {
        amountMinor: 1799,
        currency: 'usd',
        tax: { amountMinor: 287, country: 'DE', ratePercent: 19 },
      },
      {
        amountMinor: 1799,
        currency: 'usd',
        tax: { amountMinor: 0, country: 'US', ratePercent: 0 },
      },
    ]);
    expect((await eventsOf(server, id, 'MonthlyCreditsGranted'))[0]!.payment).toEqual({
      amountMinor: 999,
      currency: 'usd',
      tax: { amountMinor: 167, country: 'FR', ratePercent: 20 },
    });
  });
});
