import { isDomainError, isoDay, monthOf } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import { HttpError } from '../../http/errors.ts';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';
import { offerOf, type PricingSettings, subscriptionTier } from './pricing.ts';

/** Long enough for any purchase to reach the read models; Stripe redelivers until then. */
const PURCHASE_VISIBLE_WITHIN_MS = 10 * 60_000;

export interface StripeEventOutcome {
  duplicate?: true;
  ignored?: true;
  outcome?: string;
  position?: bigint | null;
}

interface Applied {
  objectId: string;
  userId: string | null;
  outcome: string;
  position?: bigint | null;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

const isoMonth = (unixSeconds: number) => monthOf(new Date(unixSeconds * 1000).toISOString());

/** Nothing to apply for a known reason (recorded, answered 200). */
const nothing = (objectId: string, userId: string | null, outcome: string): Applied => ({
  objectId,
  userId,
  outcome,
});

/** What a ledger command did: `done` when it appended events, `unchanged` when it had nothing to add. */
const outcomeOf = (
  objectId: string,
  userId: string,
  handled: { newEvents: unknown[]; position: bigint | null },
  done: string,
  unchanged: string,
): Applied => ({
  objectId,
  userId,
  outcome: handled.newEvents.length ? done : unchanged,
  position: handled.position,
});

/** A refused ledger command that a redelivery would not change: record it, answer 200. */
const unlessRefused = async (objectId: string, userId: string, work: () => Promise<Applied>) => {
  try {
    return await work();
  } catch (error) {
    if (isDomainError(error)) return nothing(objectId, userId, `refused: ${error.code}`);
    throw error;
  }
};

/**
 * Stripe as a command source of the ledger. Each event becomes ledger commands that are
 * idempotent by the Stripe object behind them (a checkout session grants once, an invoice's
 * month once, a refunded charge is reversed once), so events may come in any order and any
 * number of times; a processed event id is also recorded on `stripe-{id}`. Credits always come
 * from our tier table, never from amounts in the event. Unknown event types change nothing.
 */
export async function applyStripeEvent(
  ledger: Ledger,
  read: ReadDb,
  pricing: PricingSettings,
  event: Stripe.Event,
  now: Date,
): Promise<StripeEventOutcome> {
  if ((await ledger.stripeEventOf(event.id)).state.processed) return { duplicate: true };
  const context: CommandContext = {
    actor: { kind: 'stripe' },
    correlationId: event.id,
    causationId: event.id,
  };

  let applied: Applied;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      applied = await checkoutPaid(event.data.object, event.id);
      break;
    case 'invoice.paid':
      applied = await invoicePaid(event.data.object);
      break;
    case 'customer.subscription.updated':
      applied = await subscriptionUpdated(event.data.object);
      break;
    case 'customer.subscription.deleted':
      applied = await subscriptionDeleted(event.data.object);
      break;
    case 'charge.refunded':
      applied = await chargeRefunded(event.data.object);
      break;
    default:
      return { ignored: true };
  }
  await ledger.stripeEvent(
    event.id,
    {
      type: 'RecordStripeEvent',
      eventId: event.id,
      eventType: event.type,
      objectId: applied.objectId,
      userId: applied.userId,
      outcome: applied.outcome,
    },
    context,
  );
  return { outcome: applied.outcome, position: applied.position ?? null };

  async function checkoutPaid(session: Stripe.Checkout.Session, eventId: string): Promise<Applied> {
    const userId = session.client_reference_id ?? session.metadata?.userId ?? null;
    if (session.mode !== 'payment')
      return nothing(session.id, userId, 'subscription checkout: credits come with invoice.paid');
    if (session.payment_status !== 'paid')
      return nothing(session.id, userId, `not paid yet (${session.payment_status})`);
    if (!userId) return nothing(session.id, null, 'no user on the session');
    const offer = await offerOf(read, pricing, Number(session.metadata?.tierId), 'one_time');
    if (!offer) return nothing(session.id, userId, `no one-time tier ${session.metadata?.tierId}`);
    return unlessRefused(session.id, userId, async () => {
      const paymentIntentId = idOf(session.payment_intent);
      const granted = await ledger.credits(
        userId,
        {
          type: 'GrantCredits',
          grantId: `checkout:${session.id}`,
          kind: 'purchase',
          amount: offer.creditsIncluded,
          reason: `${offer.tierName} credit pack`,
          tierId: offer.tierId,
          reference: {
            checkoutSessionId: session.id,
            ...(paymentIntentId ? { paymentIntentId } : {}),
            stripeEventId: eventId,
          },
        },
        context,
      );
      return outcomeOf(session.id, userId, granted, 'granted', 'already granted');
    });
  }

  async function invoicePaid(invoice: Stripe.Invoice): Promise<Applied> {
    const details = invoice.parent?.subscription_details;
    const subscriptionId = idOf(details?.subscription);
    const userId = details?.metadata?.userId ?? null;
    if (!details || !subscriptionId)
      return nothing(invoice.id, userId, 'not a subscription invoice');
    if (!userId) return nothing(invoice.id, null, 'no user on the subscription');
    const tier = await subscriptionTier(read, Number(details.metadata?.tierId));
    if (!tier)
      return nothing(invoice.id, userId, `no subscription tier ${details.metadata?.tierId}`);
    // The paid period: its start names the month, its end is the next renewal.
    const period = invoice.lines?.data?.[0]?.period;
    const periodStart = period?.start ?? invoice.period_start ?? Math.floor(now.getTime() / 1000);
    const periodEnd = period?.end ?? invoice.period_end;
    return unlessRefused(invoice.id, userId, async () => {
      await ledger.credits(
        userId,
        { type: 'ActivateSubscription', tier, subscriptionId, now },
        context,
      );
      const granted = await ledger.credits(
        userId,
        {
          type: 'GrantMonthlyCredits',
          tier,
          period: isoMonth(periodStart),
          trigger: 'renewal',
          reference: { invoiceId: invoice.id, subscriptionId },
          now,
          ...(periodEnd && periodEnd > periodStart
            ? { nextRenewalDate: isoDay(new Date(periodEnd * 1000)) }
            : {}),
        },
        context,
      );
      return outcomeOf(invoice.id, userId, granted, 'renewed', 'month already granted');
    });
  }

  async function subscriptionUpdated(subscription: Stripe.Subscription): Promise<Applied> {
    const userId = subscription.metadata?.userId ?? null;
    if (!userId) return nothing(subscription.id, null, 'no user on the subscription');
    return unlessRefused(subscription.id, userId, async () => {
      if (subscription.cancel_at_period_end) {
        // Stripe may report the cancellation before the first invoice: know the subscription first.
        const tier = await subscriptionTier(read, Number(subscription.metadata?.tierId));
        const { state } = await ledger.creditAccountOf(userId);
        if (!state.subscription && tier) {
          await ledger.credits(
            userId,
            { type: 'ActivateSubscription', tier, subscriptionId: subscription.id, now },
            context,
          );
        }
        const cancelled = await ledger.credits(
          userId,
          { type: 'CancelSubscription', reason: 'cancel_at_period_end' },
          context,
        );
        return outcomeOf(
          subscription.id,
          userId,
          cancelled,
          'cancelled at period end',
          'already cancelled',
        );
      }
      const tier = await subscriptionTier(read, Number(subscription.metadata?.tierId));
      if (!tier || subscription.status !== 'active')
        return nothing(subscription.id, userId, 'no change');
      const activated = await ledger.credits(
        userId,
        { type: 'ActivateSubscription', tier, subscriptionId: subscription.id, now, resume: true },
        context,
      );
      return outcomeOf(subscription.id, userId, activated, 'active', 'no change');
    });
  }

  async function subscriptionDeleted(subscription: Stripe.Subscription): Promise<Applied> {
    const userId = subscription.metadata?.userId ?? null;
    if (!userId) return nothing(subscription.id, null, 'no user on the subscription');
    return unlessRefused(subscription.id, userId, async () => {
      const ended = await ledger.credits(
        userId,
        { type: 'EndSubscription', reason: 'stripe_subscription_deleted' },
        context,
      );
      return outcomeOf(subscription.id, userId, ended, 'ended', 'already ended');
    });
  }

  async function chargeRefunded(charge: Stripe.Charge): Promise<Applied> {
    const paymentIntentId = idOf(charge.payment_intent);
    if (!charge.refunded) return nothing(charge.id, null, 'partial refund: credits kept');
    if (!paymentIntentId) return nothing(charge.id, null, 'no payment intent');
    // Which purchase the charge paid: our own record of it, not the event.
    const purchase = await read
      .selectFrom('ledger_entries')
      .select(['user_id', 'reference'])
      .where('type', '=', 'CreditsGranted')
      .where(sql<string>`reference->>'paymentIntentId'`, '=', paymentIntentId)
      .executeTakeFirst();
    const checkoutSessionId = purchase?.reference?.checkoutSessionId;
    if (!purchase || !checkoutSessionId) {
      // A charge that paid no credit pack (a subscription invoice, say) is not ours to reverse.
      if (now.getTime() - charge.created * 1000 > PURCHASE_VISIBLE_WITHIN_MS) {
        return nothing(charge.id, null, 'no credit pack was paid by this charge');
      }
      // A fresh purchase may not be readable yet: fail so that Stripe delivers the event again.
      throw new HttpError(
        503,
        'purchase_not_found_yet',
        `No purchase paid by ${paymentIntentId} yet; retry later`,
      );
    }
    return unlessRefused(charge.id, purchase.user_id, async () => {
      const reversed = await ledger.credits(
        purchase.user_id,
        {
          type: 'ReversePurchase',
          grantId: `checkout:${checkoutSessionId}`,
          reference: { chargeId: charge.id, paymentIntentId, checkoutSessionId },
        },
        context,
      );
      return outcomeOf(charge.id, purchase.user_id, reversed, 'reversed', 'already reversed');
    });
  }
}
