/** Money on the ledger: what was paid, and the Stripe ids behind it. */
import { randomUUID } from 'node:crypto';
import { verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, member, signed, WEBHOOK_SECRET } from './moneyFixtures.ts';
import {
  deliver,
  packCheckout,
  paidInvoice,
  refundedCharge,
  refundedInvoiceCharge,
  uid,
} from './stripeWebhooks.ts';
import { eventCount, startTestServer, type TestServer } from './support.ts';

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
