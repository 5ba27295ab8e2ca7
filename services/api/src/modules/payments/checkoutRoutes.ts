import {
  type CheckoutStatus,
  checkoutRequestSchema,
  checkoutSessionIdSchema,
  readingMessages,
} from '@astra/contracts';
import { isDomainError } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import { Router } from 'express';
import { sql } from 'kysely';
import { voicePricingOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import { type CheckoutSessionInfo, SUBSCRIPTION_CHECKOUT_MINUTES } from './gateway.ts';
import type { LocalCheckout } from './localGateway.ts';
import { formatPrice, offerOf, pricingOf } from './pricing.ts';

/** Credits a checkout granted, once its webhook landed: by session (packs) or subscription. */
async function creditsAddedBy(read: ReadDb, userId: string, session: CheckoutSessionInfo) {
  const [type, key, id] =
    session.billingType === 'one_time'
      ? ['CreditsGranted', 'checkoutSessionId', session.id]
      : ['MonthlyCreditsGranted', 'subscriptionId', session.subscriptionId];
  if (!id) return null;
  const entry = await read
    .selectFrom('ledger_entries')
    .select('amount')
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where(sql<string>`reference->>${key}`, '=', id)
    .orderBy('stream_revision')
    .executeTakeFirst();
  return entry?.amount ?? null;
}

/** Checkout session ids are `cs_…`: any other shape is no session (404), and never reaches SQL or Stripe. */
const sessionIdOf = (value: unknown, message = 'No such checkout session') =>
  pathId(checkoutSessionIdSchema, value, message);

const subscriptionActive = (tierName: string) =>
  new HttpError(
    409,
    'subscription_active',
    `You already have ${tierName ? `the ${tierName}` : 'a'} plan. To switch, change your plan instead of subscribing again.`,
    { tierName },
  );

export function checkoutRoutes(deps: AppDeps) {
  const router = Router();
  const { read } = deps;
  const { gateway } = deps.payments;

  router.get('/pricing', async (_req, res) => {
    res.json(await pricingOf(read, deps.payments.pricing, voicePricingOf(deps.config)));
  });

  router.post('/checkout', requireUser, async (req, res) => {
    const { tierId, isSubscription } = checkoutRequestSchema.parse(req.body);
    const user = req.user!;
    // The user stream's state (write side), not the profile read model.
    if ((await deps.ledger.load('user', user.id)).state.status === 'blocked')
      throw new HttpError(403, 'account_blocked', readingMessages.accountBlocked);
    const offer = await offerOf(
      read,
      deps.payments.pricing,
      tierId,
      isSubscription ? 'subscription' : 'one_time',
    );
    if (!offer) {
      throw new HttpError(400, 'invalid_request', 'No such tier and billing type', {
        fields: [
          {
            field: 'tierId',
            message: `is not a tier with a ${isSubscription ? 'monthly' : 'one-time'} price`,
          },
        ],
      });
    }
    const now = deps.clock();
    if (isSubscription) {
      // One plan per account, by the credit stream (not a read model that may lag behind).
      const running = (await deps.ledger.load('credits', user.id)).state.subscription;
      if (running) throw subscriptionActive(running.tierName);
    }
    const base = deps.config.PUBLIC_URL.replace(/\/$/, '');
    const expiresAt = new Date(now.getTime() + SUBSCRIPTION_CHECKOUT_MINUTES * 60_000);
    const session = await gateway.createCheckout({
      userId: user.id,
      email: user.email,
      offer,
      successUrl: `${base}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/cancel`,
      ...(isSubscription ? { expiresAt } : {}),
    });
    if (isSubscription) {
      // The claim on the credit stream decides between checkouts started at the same time.
      try {
        await deps.ledger.handle(
          'credits',
          user.id,
          {
            type: 'StartSubscriptionCheckout',
            sessionId: session.id,
            url: session.url,
            tierId: offer.tierId,
            expiresAt: expiresAt.toISOString(),
            now,
          },
          req.context,
        );
      } catch (error) {
        if (!isDomainError(error)) throw error;
        // Refused: the session just made must not be paid. Should the gateway fail to expire it,
        // it expires by itself in 30 minutes, and a second subscription paid meanwhile is
        // refused and refunded by the webhook.
        await gateway
          .expireCheckout(session.id)
          .catch((expireError) =>
            req.log.error(
              { err: expireError, checkoutSessionId: session.id },
              'Expiring a refused checkout session failed',
            ),
          );
        if (error.code === 'subscription_active')
          throw subscriptionActive(String(error.details?.tierName ?? ''));
        if (error.code === 'checkout_in_progress') {
          throw new HttpError(
            409,
            'checkout_in_progress',
            'A subscription checkout is already open for your account. Continue it, or wait until it expires.',
            { url: error.details?.url, sessionId: error.details?.sessionId },
          );
        }
        throw error;
      }
    }
    res.json({ url: session.url, sessionId: session.id });
  });

  router.get('/checkout/sessions/:id', requireUser, async (req, res) => {
    const user = req.user!;
    const session = await gateway.checkoutOf(sessionIdOf(req.params.id), user.id);
    if (!session) throw notFound('No such checkout session');
    const offer = await offerOf(read, deps.payments.pricing, session.tierId, session.billingType);
    const creditsAdded = await creditsAddedBy(read, user.id, session);
    const status: CheckoutStatus = {
      sessionId: session.id,
      status:
        creditsAdded !== null
          ? 'complete'
          : session.status === 'canceled'
            ? 'canceled'
            : 'processing',
      billingType: session.billingType,
      tierName: offer?.tierName ?? '',
      creditsAdded,
      remainingCredits: user.remaining_credits,
    };
    res.json(status);
  });

  return router;
}

/** The local checkout page's own routes (development without Stripe). */
export function localCheckoutRoutes(gateway: LocalCheckout) {
  const router = Router();

  router.get('/checkout/local/:id', requireUser, async (req, res) => {
    const sessionId = sessionIdOf(req.params.id);
    const session = await gateway.sessionOf(sessionId, req.user!.id);
    if (!session) throw notFound('No such checkout session');
    const { offer, status } = session;
    res.json({
      sessionId,
      tierName: offer.tierName,
      billingType: offer.billingType,
      price: formatPrice(offer.priceMinor, offer.currency),
      currency: offer.currency,
      credits: offer.creditsIncluded,
      status,
    });
  });

  router.post('/checkout/local/:id/pay', requireUser, async (req, res) => {
    const id = sessionIdOf(req.params.id, 'No open checkout session');
    const paid = await gateway.pay(id, req.user!.id);
    if (paid === 'paying')
      throw new HttpError(409, 'payment_in_progress', 'This checkout is being paid already.');
    if (paid !== 'paid') throw notFound('No open checkout session');
    res.json({ redirectUrl: `/success?session_id=${encodeURIComponent(id)}` });
  });

  router.post('/checkout/local/:id/cancel', requireUser, async (req, res) => {
    // Always answered the same; an id of another shape names no session and is left alone.
    const id = checkoutSessionIdSchema.safeParse(req.params.id);
    if (id.success) await gateway.cancel(id.data, req.user!.id);
    res.json({ redirectUrl: '/cancel' });
  });

  return router;
}
