import { cancelSubscriptionRequestSchema, type SubscriptionStatus } from '@astra/contracts';
import { ConcurrencyError } from '@astra/event-store';
import { isDomainError, longDate, refreshSummary } from '@astra/ledger';
import { type Profile, readModels } from '@astra/projections';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import {
  type SubscriptionContext,
  subscriptionContextOf,
  subscriptionOf,
} from '../accounts/views.ts';
import { subscriptionTier } from './pricing.ts';

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

  router.post('/subscription/refresh', requireUser, async (req, res) => {
    const user = req.user!;
    // With Stripe a month comes with its paid invoice; refreshing ahead would give it unpaid.
    if (gateway.kind === 'stripe' && user.subscription_status === 'active') {
      throw new HttpError(
        409,
        'renewal_pending',
        'Your credits are added as soon as your renewal payment is confirmed.',
      );
    }
    try {
      const tier = await subscriptionTier(read, user.tier_id);
      const refreshed = await ledger.credits(
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
      console.error('Refreshing monthly credits failed:', error);
      throw new HttpError(500, 'refresh_failed', 'Failed to refresh user credits');
    }
  });

  router.post('/subscription/cancel', requireUser, async (req, res) => {
    const user = req.user!;
    const { reason } = cancelSubscriptionRequestSchema.parse(req.body ?? {});
    if (user.subscription_status !== 'active' || !user.subscription_id) {
      throw new HttpError(
        409,
        'no_active_subscription',
        'User does not have an active subscription',
      );
    }
    // Stripe first: if it refuses, nothing changes here.
    await gateway.cancelAtPeriodEnd(user.subscription_id);
    const cancelled = await ledger.credits(
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

  return router;
}
