import type Stripe from 'stripe';
import {
  type CheckoutRequest,
  checkoutMetadata,
  type InvoicePayment,
  type PaymentGateway,
} from './gateway.ts';

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** How checkouts are made: `automaticTax`, Stripe computes the tax (STRIPE_AUTOMATIC_TAX). */
export interface StripeCheckoutOptions {
  automaticTax: boolean;
}

/** Checkout, session look-ups, plan changes, cancellation and refunds through Stripe's API. */
export function stripeGateway(
  stripe: Stripe,
  { automaticTax }: StripeCheckoutOptions = { automaticTax: false },
): PaymentGateway {
  /** The invoice's payment when the event did not name it (`payments` is not always included). */
  async function paymentOf(payment: InvoicePayment) {
    if (payment.paymentIntentId || payment.chargeId) return payment;
    const paid = await stripe.invoicePayments.list({
      invoice: payment.invoiceId,
      status: 'paid',
      limit: 10,
    });
    const found = paid.data.find((p) => p.payment.payment_intent || p.payment.charge)?.payment;
    return {
      ...payment,
      paymentIntentId: idOf(found?.payment_intent),
      chargeId: idOf(found?.charge),
    };
  }

  return {
    kind: 'stripe',

    async createCheckout({
      userId,
      email,
      offer,
      successUrl,
      cancelUrl,
      expiresAt,
    }: CheckoutRequest) {
      const subscription = offer.billingType === 'subscription';
      const metadata = checkoutMetadata(userId, offer);
      const session = await stripe.checkout.sessions.create({
        mode: subscription ? 'subscription' : 'payment',
        client_reference_id: userId,
        ...(email ? { customer_email: email } : {}),
        line_items: [
          offer.providerPriceId
            ? { price: offer.providerPriceId, quantity: 1 }
            : {
                quantity: 1,
                price_data: {
                  currency: offer.currency,
                  unit_amount: offer.priceMinor,
                  product_data: {
                    name: `${offer.tierName}: ${offer.creditsIncluded} credits${subscription ? ' a month' : ''}`,
                  },
                  ...(subscription ? { recurring: { interval: 'month' as const } } : {}),
                  // Our prices are what the customer pays: the tax is in them.
                  ...(automaticTax ? { tax_behavior: 'inclusive' as const } : {}),
                },
              },
        ],
        // The tax follows the customer's country: Stripe needs their billing address for it.
        ...(automaticTax
          ? { automatic_tax: { enabled: true }, billing_address_collection: 'required' as const }
          : {}),
        metadata,
        ...(subscription
          ? { subscription_data: { metadata } }
          : { payment_intent_data: { metadata } }),
        ...(expiresAt ? { expires_at: Math.floor(expiresAt.getTime() / 1000) } : {}),
        success_url: successUrl,
        cancel_url: cancelUrl,
      });
      if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL`);
      return { id: session.id, url: session.url };
    },

    async checkoutOf(sessionId, userId) {
      if (!sessionId.startsWith('cs_')) return undefined;
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(sessionId);
      } catch (error) {
        // Unknown to Stripe is unknown here; an outage is an error, not a "not found".
        if (codeOf(error) === 'resource_missing') return undefined;
        throw error;
      }
      if (session.client_reference_id !== userId) return undefined;
      return {
        id: session.id,
        userId,
        tierId: Number(session.metadata?.tierId),
        billingType: session.mode === 'subscription' ? 'subscription' : 'one_time',
        status:
          session.status === 'expired'
            ? 'canceled'
            : session.status === 'complete'
              ? 'complete'
              : 'open',
        subscriptionId: idOf(session.subscription),
      };
    },

    async expireCheckout(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (error) {
        // Already expired or completed: not payable any more either way.
        if (codeOf(error) !== 'resource_missing' && codeOf(error) !== 'checkout_session_expired') {
          const session = await stripe.checkout.sessions.retrieve(sessionId);
          if (session.status === 'open') throw error;
        }
      }
    },

    async cancelAtPeriodEnd(subscriptionId) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    },

    async cancelNow(subscriptionId) {
      try {
        await stripe.subscriptions.cancel(subscriptionId);
      } catch (error) {
        // A subscription Stripe no longer has bills nothing.
        if (codeOf(error) !== 'resource_missing') throw error;
      }
    },

    async changePlan(subscriptionId, offer, userId) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const item = subscription.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item to change`);
      let price: Stripe.SubscriptionUpdateParams.Item;
      if (offer.providerPriceId) {
        price = { id: item.id, price: offer.providerPriceId };
      } else {
        // An inline subscription price needs a product of its own (Checkout made one per name).
        const product = await stripe.products.create({
          name: `${offer.tierName}: ${offer.creditsIncluded} credits a month`,
        });
        price = {
          id: item.id,
          price_data: {
            currency: offer.currency,
            unit_amount: offer.priceMinor,
            product: product.id,
            recurring: { interval: 'month' },
          },
        };
      }
      await stripe.subscriptions.update(subscriptionId, {
        items: [price],
        // The new price from the next invoice on: nothing is charged or credited now.
        proration_behavior: 'none',
        metadata: checkoutMetadata(userId, offer),
      });
    },

    async refundInvoice(invoice, reason) {
      if (invoice.amountPaid === 0) return { refunded: false, detail: 'nothing was paid' };
      const payment = await paymentOf(invoice);
      if (!payment.paymentIntentId && !payment.chargeId)
        return { refunded: false, detail: 'no payment found for the invoice' };
      try {
        const refund = await stripe.refunds.create(
          {
            ...(payment.paymentIntentId
              ? { payment_intent: payment.paymentIntentId }
              : { charge: payment.chargeId! }),
            metadata: { invoiceId: invoice.invoiceId, reason },
          },
          // One refund per invoice, however often its event arrives.
          { idempotencyKey: `refund-invoice-${invoice.invoiceId}` },
        );
        return { refunded: true, detail: refund.id };
      } catch (error) {
        if (codeOf(error) === 'charge_already_refunded')
          return { refunded: true, detail: 'already refunded' };
        throw error;
      }
    },

    async invoiceOfPayment(paymentIntentId) {
      const payments = await stripe.invoicePayments.list({
        payment: { type: 'payment_intent', payment_intent: paymentIntentId },
        expand: ['data.invoice'],
        limit: 10,
      });
      const found = payments.data.find((p) => p.status === 'paid') ?? payments.data[0];
      const invoice = found?.invoice;
      if (!invoice) return null;
      // Not expanded after all: fetch it, rather than take a payment of ours for a stranger's.
      if (typeof invoice === 'string') return stripe.invoices.retrieve(invoice);
      return 'deleted' in invoice && invoice.deleted ? null : (invoice as Stripe.Invoice);
    },

    async balanceTransactionsOfPayout(payoutId) {
      const transactions: Stripe.BalanceTransaction[] = [];
      // The SDK's auto-pagination follows `has_more`, page by page.
      for await (const transaction of stripe.balanceTransactions.list({
        payout: payoutId,
        expand: ['data.source'],
        limit: 100,
      }))
        transactions.push(transaction);
      return transactions;
    },

    async chargeOf(chargeId) {
      try {
        return await stripe.charges.retrieve(chargeId);
      } catch (error) {
        // No such charge (another account's, a test's): nobody's payment of ours.
        if (codeOf(error) === 'resource_missing') return null;
        throw error;
      }
    },
  };
}
