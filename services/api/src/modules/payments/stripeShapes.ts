import { randomUUID } from 'node:crypto';
import { LOCAL_CHECKOUT_TAX_RATES, type PaymentTax } from '@astra/contracts';
import type { TierOffer } from './pricing.ts';

/**
 * Stripe-shaped objects and events for the local checkout page: the fields our webhook handler
 * reads, in the shapes of Stripe's API, so the same handler path runs without Stripe.
 */
const localId = (prefix: string) => `${prefix}_local_${randomUUID().replaceAll('-', '')}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function stripeEventOf(type: string, object: Record<string, unknown>) {
  return {
    id: localId('evt'),
    object: 'event',
    api_version: null,
    created: seconds(new Date()),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

export interface LocalPurchase {
  sessionId: string;
  userId: string;
  offer: TierOffer;
  metadata: Record<string, string>;
  /** The tax in the price, as Stripe Tax would compute it; null: none computed (tax off). */
  tax: LocalTax | null;
}

export type LocalTax = PaymentTax & { country: string; ratePercent: number };

/** The tax in a tax-inclusive price for a country, by the local table (0 where it has none). */
export const localTaxOf = (priceMinor: number, country: string): LocalTax => {
  const ratePercent = LOCAL_CHECKOUT_TAX_RATES[country] ?? 0;
  return {
    amountMinor: Math.round((priceMinor * ratePercent) / (100 + ratePercent)),
    country,
    ratePercent,
  };
};

/** A tax rate object as Stripe expands it. */
const taxRate = (tax: LocalTax) => ({
  object: 'tax_rate',
  country: tax.country,
  percentage: tax.ratePercent,
  inclusive: true,
});

export function completedCheckoutSession(
  { sessionId, userId, offer, metadata, tax }: LocalPurchase,
  ids: { paymentIntentId: string | null; subscriptionId: string | null },
) {
  return {
    id: sessionId,
    object: 'checkout.session',
    mode: offer.billingType === 'subscription' ? 'subscription' : 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: userId,
    metadata,
    amount_total: offer.priceMinor,
    currency: offer.currency,
    payment_intent: ids.paymentIntentId,
    subscription: ids.subscriptionId,
    ...(tax
      ? {
          total_details: {
            amount_discount: 0,
            amount_shipping: 0,
            amount_tax: tax.amountMinor,
            breakdown: {
              discounts: [],
              taxes: [{ amount: tax.amountMinor, rate: taxRate(tax) }],
            },
          },
          customer_details: { address: { country: tax.country } },
        }
      : {}),
  };
}

export function paidInvoice(
  { offer, metadata, tax }: LocalPurchase,
  subscriptionId: string,
  periodStart: Date,
) {
  // The local checkout bills by calendar month, as the spec's refresh rule counts months.
  const periodEnd = new Date(
    Date.UTC(periodStart.getUTCFullYear(), periodStart.getUTCMonth() + 1, 1),
  );
  const period = { start: seconds(periodStart), end: seconds(periodEnd) };
  return {
    id: localId('in'),
    object: 'invoice',
    status: 'paid',
    billing_reason: 'subscription_create',
    amount_paid: offer.priceMinor,
    currency: offer.currency,
    period_start: period.start,
    period_end: period.end,
    ...(tax
      ? {
          total_taxes: [
            {
              amount: tax.amountMinor,
              tax_behavior: 'inclusive',
              tax_rate_details: { tax_rate: taxRate(tax) },
              type: 'tax_rate_details',
            },
          ],
          customer_address: { country: tax.country },
        }
      : {}),
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: subscriptionId, metadata },
    },
    lines: {
      object: 'list',
      has_more: false,
      data: [{ id: localId('il'), object: 'line_item', period }],
    },
    // Since API version 2025-03-31.basil an invoice names its payment here.
    payments: {
      object: 'list',
      has_more: false,
      data: [
        {
          id: localId('inpay'),
          object: 'invoice_payment',
          status: 'paid',
          is_default: true,
          amount_paid: offer.priceMinor,
          currency: offer.currency,
          payment: { type: 'payment_intent', payment_intent: localId('pi') },
        },
      ],
    },
  };
}

/** A subscription checkout session that will not be paid (`checkout.session.expired`). */
export function expiredCheckoutSession(sessionId: string, userId: string, tierId: number) {
  return {
    id: sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'expired',
    payment_status: 'unpaid',
    client_reference_id: userId,
    metadata: { userId, tierId: String(tierId), billingType: 'subscription' },
    payment_intent: null,
    subscription: null,
  };
}

/** A running subscription as `customer.subscription.updated` shows it (after a plan change). */
export function updatedSubscription(subscriptionId: string, metadata: Record<string, string>) {
  return {
    id: subscriptionId,
    object: 'subscription',
    status: 'active',
    cancel_at_period_end: false,
    metadata,
  };
}

export const newLocalIds = {
  paymentIntent: () => localId('pi'),
  subscription: () => localId('sub'),
  checkoutSession: () => localId('cs'),
};
