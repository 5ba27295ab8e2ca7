import type { ReadDb } from '@astra/projections';
import type { AppDb } from '../../storage/appDatabase.ts';
import { checkoutMetadata, type PaymentGateway } from './gateway.ts';
import { offerOf, type PricingSettings, type TierOffer } from './pricing.ts';
import {
  completedCheckoutSession,
  expiredCheckoutSession,
  localTaxOf,
  newLocalIds,
  paidInvoice,
  stripeEventOf,
  updatedSubscription,
} from './stripeShapes.ts';

/** Sends a Stripe-shaped event, signed like Stripe signs it, to our own webhook endpoint. */
export type WebhookDelivery = (event: ReturnType<typeof stripeEventOf>) => Promise<void>;

/** What paying a local checkout session came to. */
export type LocalPayment = 'paid' | 'not_open' | 'paying';

export interface LocalCheckout extends PaymentGateway {
  sessionOf(
    sessionId: string,
    userId: string,
  ): Promise<{ offer: TierOffer; status: 'open' | 'paid' | 'canceled' } | undefined>;
  /** `country`: the customer's, for the tax (`LOCAL_CHECKOUT_TAX_RATES`); null records none. */
  pay(sessionId: string, userId: string, country: string | null): Promise<LocalPayment>;
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
      // Being paid right now is still open to the page: it shows 'paid' once the webhook answered.
      return row && offer && { offer, status: row.status === 'paying' ? 'open' : row.status };
    },

    async pay(sessionId, userId, country) {
      // One payment per session, whatever the concurrency: the first to move it from 'open' to
      // 'paying' pays; everyone else finds it no longer open. The payment's ids are fixed at the
      // first claim, so a retry after a failed delivery pays the same purchase, never a second.
      const claimed = await app
        .updateTable('local_checkout_sessions')
        .set((eb) => ({
          status: 'paying',
          payment_intent_id: eb.fn.coalesce(
            'payment_intent_id',
            eb.val(newLocalIds.paymentIntent()),
          ),
          subscription_id: eb.fn.coalesce('subscription_id', eb.val(newLocalIds.subscription())),
        }))
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('status', '=', 'open')
        .returningAll()
        .executeTakeFirst();
      if (!claimed)
        return (await rowOf(sessionId, userId))?.status === 'paying' ? 'paying' : 'not_open';
      const reopen = () =>
        app
          .updateTable('local_checkout_sessions')
          .set({ status: 'open' })
          .where('id', '=', sessionId)
          .where('status', '=', 'paying')
          .execute();
      try {
        const offer = await offerOf(read, pricing, claimed.tier_id, claimed.billing_type);
        if (!offer) {
          await reopen();
          return 'not_open';
        }
        const purchase = {
          sessionId,
          userId,
          offer,
          metadata: checkoutMetadata(userId, offer),
          tax: country === null ? null : localTaxOf(offer.priceMinor, country),
        };
        const subscription = offer.billingType === 'subscription';
        const ids = {
          paymentIntentId: subscription ? null : claimed.payment_intent_id,
          subscriptionId: subscription ? claimed.subscription_id : null,
        };
        await deliver(
          stripeEventOf('checkout.session.completed', completedCheckoutSession(purchase, ids)),
        );
        if (ids.subscriptionId) {
          await deliver(
            stripeEventOf('invoice.paid', paidInvoice(purchase, ids.subscriptionId, clock())),
          );
        }
      } catch (error) {
        // Our webhook refused: the session can be paid again (the grants are idempotent).
        await reopen();
        throw error;
      }
      await app
        .updateTable('local_checkout_sessions')
        .set({ status: 'paid' })
        .where('id', '=', sessionId)
        .execute();
      return 'paid';
    },

    async cancel(sessionId, userId) {
      const cancelled = await app
        .updateTable('local_checkout_sessions')
        .set({ status: 'canceled' })
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('status', '=', 'open')
        .returningAll()
        .executeTakeFirst();
      if (!cancelled) return false;
      if (cancelled.billing_type === 'subscription') {
        // As Stripe reports a session that will not be paid: the account may start another.
        await deliver(
          stripeEventOf(
            'checkout.session.expired',
            expiredCheckoutSession(sessionId, userId, cancelled.tier_id),
          ),
        );
      }
      return true;
    },

    async expireCheckout(sessionId) {
      await app
        .updateTable('local_checkout_sessions')
        .set({ status: 'canceled' })
        .where('id', '=', sessionId)
        .where('status', '=', 'open')
        .execute();
    },

    // No billing runs behind the local checkout: the ledger's own cancellation is all there is.
    async cancelAtPeriodEnd() {},
    async cancelNow() {},

    async changePlan(subscriptionId, offer, userId) {
      // What Stripe reports after a plan change: the subscription with the new tier.
      await deliver(
        stripeEventOf(
          'customer.subscription.updated',
          updatedSubscription(subscriptionId, checkoutMetadata(userId, offer)),
        ),
      );
    },

    async refundInvoice(invoice, reason) {
      // No money moved; the refund is recorded so that it can be seen, once per invoice.
      const recorded = await app
        .insertInto('local_refunds')
        .values({
          invoice_id: invoice.invoiceId,
          payment_intent_id: invoice.paymentIntentId,
          charge_id: invoice.chargeId,
          amount_minor: invoice.amountPaid,
          reason,
          created_at: new Date(),
        })
        .onConflict((oc) => oc.column('invoice_id').doNothing())
        .returning('invoice_id')
        .executeTakeFirst();
      return {
        refunded: true,
        detail: recorded ? `local refund of ${invoice.invoiceId}` : 'already refunded',
      };
    },

    // The local checkout keeps no invoices (its invoice.paid is sent, never stored), and no
    // money moves that could be refunded: no payment of it is an invoice's to be found.
    async invoiceOfPayment() {
      return null;
    },

    // Nor is anything paid out.
    async balanceTransactionsOfPayout() {
      return [];
    },

    // Nor can a local payment be disputed: it has no charge.
    async chargeOf() {
      return null;
    },
  };
}
