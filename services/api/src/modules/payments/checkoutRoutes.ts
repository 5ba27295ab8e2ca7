import {
  type CheckoutStatus,
  checkoutConflictSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  checkoutSessionIdSchema,
  checkoutStatusSchema,
  localCheckoutPaySchema,
  localCheckoutResultSchema,
  localCheckoutSessionSchema,
  pricingResponseSchema,
  readingMessages,
  subscriptionActiveErrorSchema,
} from '@astra/contracts';
import { isDomainError } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import { sql } from 'kysely';
import { voicePricingOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import {
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
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

const descriptors = {
  pricing: {
    method: 'get',
    path: '/api/pricing',
    tag: 'Payments',
    summary: 'The tiers, each with its monthly and one-time rows',
    auth: 'none',
    responses: ok(pricingResponseSchema),
    errors: [],
  },
  checkout: {
    method: 'post',
    path: '/api/checkout',
    tag: 'Payments',
    summary: 'Starts paying for a tier: a checkout session to send the browser to',
    auth: 'user',
    body: json(checkoutRequestSchema),
    responses: ok(checkoutResponseSchema),
    errors: [
      {
        status: 400,
        code: 'invalid_request',
        when: 'A bad body, or no such tier and billing type',
      },
      { status: 403, code: 'account_blocked', when: 'The account is blocked' },
      {
        status: 409,
        code: 'subscription_active',
        when: 'A subscription runs already; change the plan instead',
        schema: subscriptionActiveErrorSchema,
      },
      {
        status: 409,
        code: 'checkout_in_progress',
        when: 'A subscription checkout of the account is still open (its `url` and `sessionId`)',
        schema: checkoutConflictSchema,
      },
    ],
    command: true,
  },
  checkoutStatus: {
    method: 'get',
    path: '/api/checkout/sessions/{id}',
    tag: 'Payments',
    summary: 'Has the payment landed? (the success page polls this)',
    auth: 'user',
    responses: ok(checkoutStatusSchema),
    errors: [notFoundWhen("Unknown, or another user's, checkout session")],
  },
} satisfies RouteDescriptors;

export const checkoutRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { read } = deps;
  const { gateway } = deps.payments;

  route('pricing', async (_req, res) => {
    res.json(await pricingOf(read, deps.payments.pricing, voicePricingOf(deps.config)));
  });

  route('checkout', requireUser, async (req, res) => {
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

  route('checkoutStatus', requireUser, async (req, res) => {
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
});

const localPages = {
  localCheckoutSession: {
    method: 'get',
    path: '/api/checkout/local/{id}',
    tag: 'Payments',
    summary: 'The local checkout page: its session (development, without Stripe)',
    auth: 'user',
    responses: ok(localCheckoutSessionSchema),
    errors: [notFoundWhen('No such checkout session')],
    onlyWhen: 'STRIPE_SECRET_KEY is unset (never in production)',
  },
  localCheckoutPay: {
    method: 'post',
    path: '/api/checkout/local/{id}/pay',
    tag: 'Payments',
    summary: 'The local checkout page: pays (sends our webhook what Stripe would)',
    auth: 'user',
    body: json(localCheckoutPaySchema, false),
    responses: ok(localCheckoutResultSchema),
    errors: [
      notFoundWhen('No open checkout session (unknown, already paid or cancelled)'),
      { status: 409, code: 'payment_in_progress', when: 'This checkout is being paid already' },
    ],
    command: true,
    onlyWhen: 'STRIPE_SECRET_KEY is unset (never in production)',
  },
  localCheckoutCancel: {
    method: 'post',
    path: '/api/checkout/local/{id}/cancel',
    tag: 'Payments',
    summary: 'The local checkout page: cancels an open session',
    auth: 'user',
    responses: ok(localCheckoutResultSchema),
    errors: [],
    onlyWhen: 'STRIPE_SECRET_KEY is unset (never in production)',
  },
} satisfies RouteDescriptors;

/** The local checkout page's own routes (development without Stripe). */
export const localCheckoutRoutes = describedRouter(localPages, (gateway: LocalCheckout, route) => {
  route('localCheckoutSession', requireUser, async (req, res) => {
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

  route('localCheckoutPay', requireUser, async (req, res) => {
    const id = sessionIdOf(req.params.id, 'No open checkout session');
    const { country } = localCheckoutPaySchema.parse(req.body ?? {});
    const paid = await gateway.pay(id, req.user!.id, country ?? null);
    if (paid === 'paying')
      throw new HttpError(409, 'payment_in_progress', 'This checkout is being paid already.');
    if (paid !== 'paid') throw notFound('No open checkout session');
    res.json({ redirectUrl: `/success?session_id=${encodeURIComponent(id)}` });
  });

  route('localCheckoutCancel', requireUser, async (req, res) => {
    // Always answered the same; an id of another shape names no session and is left alone.
    const id = checkoutSessionIdSchema.safeParse(req.params.id);
    if (id.success) await gateway.cancel(id.data, req.user!.id);
    res.json({ redirectUrl: '/cancel' });
  });
});
