import {
  cancelSubscriptionRequestSchema,
  changePlanRequestSchema,
  type SubscriptionStatus,
} from '@astra/contracts';
import { ConcurrencyError } from '@astra/event-store';
import { isDomainError, longDate, refreshSummary } from '@astra/ledger';
import { type Profile, readModels } from '@astra/projections';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
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

export function subscriptionRoutes(deps: AppDeps) {
  const router = Router();
  const { ledger, read, consistency, clock } = deps;
  const { gateway } = deps.payments;

  /** The profile after this request's own write. */
  const freshProfile = (userId: string) =>
    readModels(deps.db)
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();

  router.get('/subscription', requireUser, (req, res) => {
    res.json(subscriptionStatusOf(req.user!, subscriptionContextOf(deps)));
  });

  /** The subscription as the credit stream has it now (the write side, never the profile). */
  const runningSubscription = async (userId: string) =>
    (await ledger.load('credits', userId)).state.subscription;

  router.post('/subscription/refresh', requireUser, async (req, res) => {
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

  router.post('/subscription/cancel', requireUser, async (req, res) => {
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
        ? `Your subscription is cancelled. Your access continues until ${longDate(until)}.`
        : 'Your subscription is cancelled.',
      subscription: subscriptionStatusOf(profile, subscriptionContextOf(deps)),
    });
  });

  router.post('/subscription/change', requireUser, async (req, res) => {
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
      message: `Your plan changes to ${tier.tierName} from ${longDate(from)}: that renewal bills ${price} and adds ${tier.creditsPerMonth} credits a month. Nothing is charged now, and your current credits stay.`,
      subscription: subscriptionStatusOf(profile, subscriptionContextOf(deps)),
    });
  });

  return router;
}
