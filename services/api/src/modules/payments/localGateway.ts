import type { ReadDb } from '@astra/projections';
import type { AppDb } from '../../storage/appDatabase.ts';
import { checkoutMetadata, type PaymentGateway } from './gateway.ts';
import { offerOf, type PricingSettings, type TierOffer } from './pricing.ts';
import {
  completedCheckoutSession,
  newLocalIds,
  paidInvoice,
  stripeEventOf,
} from './stripeShapes.ts';

/** Sends a Stripe-shaped event, signed like Stripe signs it, to our own webhook endpoint. */
export type WebhookDelivery = (event: ReturnType<typeof stripeEventOf>) => Promise<void>;

export interface LocalCheckout extends PaymentGateway {
  sessionOf(
    sessionId: string,
    userId: string,
  ): Promise<{ offer: TierOffer; status: 'open' | 'paid' | 'canceled' } | undefined>;
  pay(sessionId: string, userId: string): Promise<boolean>;
  cancel(sessionId: string, userId: string): Promise<boolean>;
}

/**
 * The checkout of development without a Stripe key: our own page, whose 'Pay' delivers the
 * webhook events Stripe would (checkout.session.completed, and invoice.paid for a subscription)
 * to our webhook endpoint. Production refuses to start in this mode.
 */
export function localGateway(
  app: AppDb,
  read: ReadDb,
  pricing: PricingSettings,
  deliver: WebhookDelivery,
  clock: () => Date,
): LocalCheckout {
  const rowOf = (sessionId: string, userId: string) =>
    app
      .selectFrom('local_checkout_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();

  return {
    kind: 'local',

    async createCheckout({ userId, offer }) {
      const id = newLocalIds.checkoutSession();
      await app
        .insertInto('local_checkout_sessions')
        .values({
          id,
          user_id: userId,
          tier_id: offer.tierId,
          billing_type: offer.billingType,
          status: 'open',
          created_at: new Date(),
        })
        .execute();
      return { id, url: `/checkout/local/${id}` };
    },

    async checkoutOf(sessionId, userId) {
      const row = await rowOf(sessionId, userId);
      return (
        row && {
          id: row.id,
          userId,
          tierId: row.tier_id,
          billingType: row.billing_type,
          status:
            row.status === 'paid' ? 'complete' : row.status === 'canceled' ? 'canceled' : 'open',
          subscriptionId: row.subscription_id,
        }
      );
    },

    async sessionOf(sessionId, userId) {
      const row = await rowOf(sessionId, userId);
      const offer = row && (await offerOf(read, pricing, row.tier_id, row.billing_type));
      return row && offer && { offer, status: row.status };
    },

    async pay(sessionId, userId) {
      const row = await rowOf(sessionId, userId);
      const offer = row && (await offerOf(read, pricing, row.tier_id, row.billing_type));
      if (!row || !offer || row.status !== 'open') return false;
      const purchase = { sessionId, userId, offer, metadata: checkoutMetadata(userId, offer) };
      const subscription = offer.billingType === 'subscription';
      const ids = {
        paymentIntentId: subscription ? null : newLocalIds.paymentIntent(),
        subscriptionId: subscription ? newLocalIds.subscription() : null,
      };
      // Delivered first: if our webhook refuses, the session stays open and 'Pay' can be tried
      // again (the grants are idempotent by checkout session).
      await deliver(
        stripeEventOf('checkout.session.completed', completedCheckoutSession(purchase, ids)),
      );
      if (ids.subscriptionId) {
        await deliver(
          stripeEventOf('invoice.paid', paidInvoice(purchase, ids.subscriptionId, clock())),
        );
      }
      await app
        .updateTable('local_checkout_sessions')
        .set({
          status: 'paid',
          payment_intent_id: ids.paymentIntentId,
          subscription_id: ids.subscriptionId,
        })
        .where('id', '=', sessionId)
        .execute();
      return true;
    },

    async cancel(sessionId, userId) {
      const row = await rowOf(sessionId, userId);
      if (row?.status !== 'open') return false;
      await app
        .updateTable('local_checkout_sessions')
        .set({ status: 'canceled' })
        .where('id', '=', sessionId)
        .execute();
      return true;
    },

    // No billing runs behind the local checkout: the ledger's own cancellation is all there is.
    async cancelAtPeriodEnd() {},
  };
}
