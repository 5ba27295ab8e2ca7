import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { Client, TestServer } from './support.ts';

/** Stripe webhook events for HTTP tests: Stripe's shapes, signed with the SDK's test header. */

const signer = new Stripe('sk_test_only_for_signing');
export const uid = () => randomUUID().replaceAll('-', '');

export interface SignedEvent {
  payload: string;
  header: string;
}

/** The `Stripe-Signature` header Stripe would send with this payload. */
export const signedPayload = (payload: string, secret: string, timestamp?: number) =>
  signer.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
  });

/** A signer of events for one webhook secret. */
export const webhookSigner =
  (secret: string) =>
  (
    type: string,
    object: Record<string, unknown>,
    options: { id?: string; timestamp?: number; secret?: string } = {},
  ): SignedEvent => {
    const payload = JSON.stringify({
      id: options.id ?? `evt_${uid()}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    });
    return { payload, header: signedPayload(payload, options.secret ?? secret, options.timestamp) };
  };

export const deliver = (server: TestServer, event: SignedEvent) =>
  server
    .client()
    .request('POST', '/api/webhooks/stripe', event.payload, { 'stripe-signature': event.header });

/** A signed-in member with the free credits. */
export async function member(server: TestServer, prefix = 'payer') {
  const client = server.client();
  const me = await client.signIn(`${prefix}-${randomUUID()}@example.com`);
  return { client, id: me.id };
}

export const me = async (client: Client) => (await client.get('/api/me')).body;

/** A paid checkout of a credit pack, as `checkout.session.completed` carries it. */
export const packCheckout = (
  userId: string,
  tierId = 2,
  {
    paymentIntent = `pi_test_${uid()}`,
    amountTotal = 1799,
    currency = 'usd',
    customer = `cus_test_${uid()}`,
  }: { paymentIntent?: string; amountTotal?: number; currency?: string; customer?: string } = {},
) => ({
  id: `cs_test_${uid()}`,
  object: 'checkout.session',
  mode: 'payment',
  status: 'complete',
  payment_status: 'paid',
  client_reference_id: userId,
  metadata: { userId, tierId: String(tierId), billingType: 'one_time' },
  payment_intent: paymentIntent,
  customer,
  amount_total: amountTotal,
  currency,
});

/** A charge as Stripe sends it: the payment intent's metadata (set by our checkout) copied on. */
export const refundedCharge = (
  userId: string,
  paymentIntent: string,
  paid: number,
  refunded: number,
) => ({
  id: `ch_${uid()}`,
  object: 'charge',
  amount: paid,
  amount_refunded: refunded,
  refunded: refunded === paid,
  currency: 'usd',
  payment_intent: paymentIntent,
  created: Math.floor(Date.now() / 1000),
  metadata: { userId, tierId: '2', billingType: 'one_time' },
});

/**
 * The charge of a subscription invoice's payment, refunded: Stripe puts none of our metadata on
 * it (the invoice's payment intent has none) and, since 2025-03-31.basil, no invoice either.
 */
export const refundedInvoiceCharge = (paymentIntent: string, paid: number, refunded: number) => ({
  id: `ch_${uid()}`,
  object: 'charge',
  amount: paid,
  amount_refunded: refunded,
  refunded: refunded === paid,
  currency: 'usd',
  payment_intent: paymentIntent,
  created: Math.floor(Date.now() / 1000),
  metadata: {},
});

/** A paid subscription invoice (Stripe's 2025 shape: the payment under `payments`). */
export const paidInvoice = (
  userId: string,
  tierId: number,
  subscriptionId: string,
  periodStart: string,
  {
    paymentIntent = `pi_inv_${uid()}`,
    amountPaid = 999,
    customer = `cus_test_${uid()}`,
  }: { paymentIntent?: string; amountPaid?: number; customer?: string } = {},
) => {
  const start = Math.floor(Date.parse(periodStart) / 1000);
  return {
    id: `in_test_${uid()}`,
    object: 'invoice',
    status: 'paid',
    billing_reason: 'subscription_cycle',
    customer,
    amount_paid: amountPaid,
    currency: 'usd',
    parent: {
      type: 'subscription_details',
      subscription_details: {
        subscription: subscriptionId,
        metadata: { userId, tierId: String(tierId), billingType: 'subscription' },
      },
    },
    lines: {
      object: 'list',
      data: [{ id: 'il_1', object: 'line_item', period: { start, end: start + 30 * 86400 } }],
    },
    payments: {
      object: 'list',
      data: [
        {
          id: `inpay_${uid()}`,
          object: 'invoice_payment',
          status: 'paid',
          is_default: true,
          payment: { type: 'payment_intent', payment_intent: paymentIntent },
        },
      ],
    },
    period_start: start,
  };
};
