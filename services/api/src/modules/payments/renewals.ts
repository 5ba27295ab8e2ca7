import { isoDay, monthOf } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import { type Ledger, systemContext } from '../../ledger/ledger.ts';
import type { Logger } from '../../observability/logger.ts';
import { subscriptionTier } from './pricing.ts';

/**
 * Renewals when no Stripe sends invoices (development): every due active subscription gets its
 * month (with the rollover rule), and a cancelled one ends at its renewal date. Idempotent per
 * account and period, so it may run as often as anyone likes.
 */
export async function grantDueMonths(ledger: Ledger, read: ReadDb, now: Date, log: Logger) {
  const due = await read
    .selectFrom('profiles')
    .select(['id', 'tier_id', 'subscription_status', 'next_renewal_date'])
    .where('subscription_type', '=', 'subscription')
    .where('next_renewal_date', '<=', isoDay(now))
    .where('status', '!=', 'deleted')
    .limit(1000)
    .execute();
  let granted = 0;
  for (const account of due) {
    const context = systemContext();
    try {
      if (account.subscription_status === 'cancelled') {
        await ledger.handle(
          'credits',
          account.id,
          { type: 'EndSubscription', reason: 'cancelled_at_period_end' },
          context,
        );
        continue;
      }
      const tier = await subscriptionTier(read, account.tier_id);
      const renewal = await ledger.handle(
        'credits',
        account.id,
        {
          type: 'GrantMonthlyCredits',
          tier,
          period: monthOf(account.next_renewal_date!),
          trigger: 'scheduler',
          reference: null,
          now,
        },
        context,
      );
      if (renewal.newEvents.length) granted++;
    } catch (error) {
      log.error({ err: error, userId: account.id }, 'Renewing a subscription failed');
    }
  }
  return granted;
}
