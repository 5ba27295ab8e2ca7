import {
  cancelSubscriptionRequestSchema,
  changePlanRequestSchema,
  formatLongDate,
  refreshNotDueErrorSchema,
  type SubscriptionStatus,
  subscriptionActionSchema,
  subscriptionStatusSchema,
} from '@astra/contracts';
import { ConcurrencyError } from '@astra/event-store';
import { isDomainError, refreshSummary } from '@astra/ledger';
import { type Profile, readModels } from '@astra/projections';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import { describedRouter, json, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';
import {
  creditLotsOf,
  type SubscriptionContext,
  subscriptionContextOf,
  subscriptionOf,
} from '../accounts/views.ts';
import { formatPrice, offerOf, subscriptionTier } from './pricing.ts';

/** The spec's derived subscription view of a profile. */
export const subscriptionStatusOf = (
  profile: Profile,
  context: SubscriptionContext,
): SubscriptionStatus => {
  const subscription = subscriptionOf(profile, context);
  return {
    isSubscriber: subscription !== null,
    subscriptionTier: subscription?.tierName ?? null,
    subscriptionStatus: subscription?.status ?? null,
    nextRenewalDate: subscription?.nextRenewalDate ?? null,
    creditsRemaining: profile.remaining_credits,
    creditsPerMonth: subscription?.creditsPerMonth ?? null,
    needsRefresh: subscription?.needsRefresh ?? false,
    lastRefreshDate: subscription?.lastRefreshDate ?? null,
    rolloverCredits: subscription?.rolloverCredits ?? null,
    forfeitAtRenewal: subscription?.forfeitAtRenewal ?? 0,
    creditLots: creditLotsOf(profile),
  };
};

const descriptors = {
  subscription: {
    method: 'get',
    path: '/api/subscription',
    tag: 'Payments',
    summary: "The spec's subscription view",
    auth: 'user',
    responses: ok(subscriptionStatusSchema),
    errors: [],
  },
  refreshSubscription: {
    method: 'post',
    path: '/api/subscription/refresh',
    tag: 'Payments',
    summary: 'Refresh Monthly Credits: grants a month that is due (without Stripe)',
    auth: 'user',
    responses: ok(subscriptionActionSchema),
    errors: [
      { status: 404, code: 'user_not_found', when: 'No credit account' },
      {
        status: 409,
        code: 'no_active_subscription',
        when: 'No subscription, or a cancelled one',
      },
      {
        status: 409,
        code: 'subscription_missing_tier',
        when: 'The subscription has no tier information',
      },
      {
        status: 409,
        code: 'refresh_not_due',
        when: 'The renewal date has not come, or its month was granted already',
        schema: refreshNotDueErrorSchema,
      },
      {
        status: 409,
        code: 'renewal_pending',
        when: 'With Stripe: months come with their paid invoice, never ahead of it',
      },
      { status: 422, code: 'invalid_tier', when: 'Our table has no such monthly tier' },
      { status: 500, code: 'refresh_failed', when: 'Anything else (logged)' },
    ],
    command: true,
  },
  cancelSubscription: {
    method: 'post',
    path: '/api/subscription/cancel',
    tag: 'Payments',
    summary: 'Cancels at the end of the paid period',
    auth: 'user',
    body: json(cancelSubscriptionRequestSchema, false),
    responses: ok(subscriptionActionSchema),
    errors: [
      {
        status: 409,
        code: 'no_active_subscription',
        when: 'No active subscription (a second cancel included)',
      },
    ],
    command: true,
  },
  changePlan: {
    method: 'post',
    path: '/api/subscription/change',
    tag: 'Payments',
    summary: 'Another plan from the next renewal; no money moves now',
    auth: 'user',
    body: json(changePlanRequestSchema),
    responses: ok(subscriptionActionSchema),
    errors: [
      { status: 400, code: 'invalid_request', when: 'A bad body, or no tier with a monthly price' },
      { status: 409, code: 'no_active_subscription', when: 'No running active subscription' },
      { status: 409, code: 'same_plan', when: 'The tier of the running subscription' },
    ],
    command: true,
  },
} satisfies RouteDescriptors;

export const subscriptionRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ledger, read, consistency, clock } = deps;
  const { gateway } = deps.payments;

  /** The profile after this request's own write. */
  const freshProfile = (userId: string) =>
    readModels(deps.db)
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();

  route('subscription', requireUser, (req, res) => {
    res.json(subscriptionStatusOf(req.user!, subscriptionContextOf(deps)));
  });

  /** The subscription as the credit stream has it now (the write side, never the profile). */
  const runningSubscription = async (userId: string) =>
    (await ledger.load('credits', userId)).state.subscription;

  route('refreshSubscription', requireUser, async (req, res) => {
    const user = req.user!;
    const running = await runningSubscription(user.id);
    // With Stripe a month comes with its paid invoice; refreshing ahead would give it unpaid.
    if (gateway.kind === 'stripe' && running?.status === 'active') {
      throw new HttpError(
        409,
        'renewal_pending',
        'Your credits are added as soon as your renewal payment is confirmed.',
      );
    }
    try {
      const tier = await subscriptionTier(read, running?.tierId ?? null);
      const refreshed = await ledger.handle(
        'credits',
        user.id,
        { type: 'RefreshMonthlyCredits', tier, now: clock() },
        req.context,
      );
      await consistency.settle(req, refreshed.position);
      res.json({
        success: true,
        message: refreshSummary(refreshed.newEvents),
        subscription: subscriptionStatusOf(
          await freshProfile(user.id),
          subscriptionContextOf(deps),
        ),
      });
    } catch (error) {
      if (isDomainError(error) || error instanceof ConcurrencyError) throw error;
      req.log.error({ err: error }, 'Refreshing monthly credits failed');
      throw new HttpError(500, 'refresh_failed', 'Failed to refresh user credits');
    }
  });

  route('cancelSubscription', requireUser, async (req, res) => {
    const user = req.user!;
    const { reason } = cancelSubscriptionRequestSchema.parse(req.body ?? {});
    const running = await runningSubscription(user.id);
    if (running?.status !== 'active' || !running.subscriptionId) {
      throw new HttpError(
        409,
        'no_active_subscription',
        'User does not have an active subscription',
      );
    }
    // Stripe first: if it refuses, nothing changes here.
    await gateway.cancelAtPeriodEnd(running.subscriptionId);
    const cancelled = await ledger.handle(
      'credits',
      user.id,
      { type: 'CancelSubscription', reason },
      req.context,
    );
    await consistency.settle(req, cancelled.position);
    const profile = await freshProfile(user.id);
    const until = profile.next_renewal_date;
    res.json({
      success: true,
      message: until
        ? `Your subscription is cancelled. Your access continues until ${formatLongDate(until)}.`
        : 'Your subscription is cancelled.',
      subscription: subscriptionStatusOf(profile, subscriptionContextOf(deps)),
    });
  });

  route('changePlan', requireUser, async (req, res) => {
    const user = req.user!;
    const { tierId } = changePlanRequestSchema.parse(req.body ?? {});
    const running = await runningSubscription(user.id);
    if (running?.status !== 'active' || !running.subscriptionId) {
      throw new HttpError(
        409,
        'no_active_subscription',
        'User does not have an active subscription',
      );
    }
    const offer = await offerOf(read, deps.payments.pricing, tierId, 'subscription');
    const tier = await subscriptionTier(read, tierId);
    if (!offer || !tier) {
      throw new HttpError(400, 'invalid_request', 'No such plan', {
        fields: [{ field: 'tierId', message: `is not a tier with a monthly price (${tierId})` }],
      });
    }
    if (tier.tierId === running.tierId)
      throw new HttpError(409, 'same_plan', `You are already on the ${running.tierName} plan.`);
    // The gateway first: if it refuses, nothing changes here.
    await gateway.changePlan(running.subscriptionId, offer, user.id);
    let position: bigint | null = null;
    try {
      position = (
        await ledger.handle('credits', user.id, { type: 'ChangePlan', tier }, req.context)
      ).position;
    } catch (error) {
      // The gateway's own report of the change (the local checkout's webhook) got there first.
      if (!isDomainError(error) || error.code !== 'same_plan') throw error;
    }
    await consistency.settle(req, position);
    const profile = await freshProfile(user.id);
    const from = running.nextRenewalDate;
    const price = `${formatPrice(offer.priceMinor, offer.currency)} ${offer.currency.toUpperCase()}`;
    res.json({
      success: true,
      message: `Your plan changes to ${tier.tierName} from ${formatLongDate(from)}: that renewal bills ${price} and adds ${tier.creditsPerMonth} credits a month. Nothing is charged now, and your current credits stay.`,
      subscription: subscriptionStatusOf(profile, subscriptionContextOf(deps)),
    });
  });
});
