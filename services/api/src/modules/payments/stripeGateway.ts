import type Stripe from 'stripe';
import { type CheckoutRequest, checkoutMetadata, type PaymentGateway } from './gateway.ts';

/** Checkout, session look-ups and cancellation through Stripe's API. */
export function stripeGateway(stripe: Stripe): PaymentGateway {
  return {
    kind: 'stripe',

    async createCheckout({ userId, email, offer, successUrl, cancelUrl }: CheckoutRequest) {
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
                },
              },
        ],
        metadata,
        ...(subscription
          ? { subscription_data: { metadata } }
          : { payment_intent_data: { metadata } }),
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
        if ((error as { code?: string }).code === 'resource_missing') return undefined;
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
        subscriptionId:
          typeof session.subscription === 'string'
            ? session.subscription
            : (session.subscription?.id ?? null),
      };
    },

    async cancelAtPeriodEnd(subscriptionId) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    },
  };
}
