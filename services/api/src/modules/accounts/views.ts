import {
  type CreditLots,
  type LedgerEntryView,
  ledgerEntryDescription,
  type Me,
} from '@astra/contracts';
import { isoDay } from '@astra/ledger';
import type { LedgerEntry, Profile } from '@astra/projections';
import { placeView } from '@astra/readings';
import type { AppDeps } from '../../dependencies.ts';

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** What a view of a subscription depends on besides the profile. */
export interface SubscriptionContext {
  today: string;
  /** A due month may be refreshed by hand (no Stripe renews it with an invoice). */
  manualRefresh: boolean;
}

export const subscriptionContextOf = (
  deps: Pick<AppDeps, 'clock' | 'payments'>,
): SubscriptionContext => ({
  today: isoDay(deps.clock()),
  manualRefresh: deps.payments.gateway.kind === 'local',
});

/** What the balance is made of, by where its credits came from (the ledger's lots). */
export const creditLotsOf = (profile: Profile): CreditLots => ({
  subscription: profile.subscription_credits ?? 0,
  free: profile.free_credits ?? 0,
  purchased: profile.purchased_credits ?? 0,
  promotional: profile.promotional_credits ?? 0,
});

export const subscriptionOf = (
  profile: Profile,
  { today, manualRefresh }: SubscriptionContext,
): Me['subscription'] => {
  if (profile.subscription_type !== 'subscription' || profile.tier_id === null) return null;
  const status = profile.subscription_status === 'cancelled' ? 'cancelled' : 'active';
  const creditsPerMonth = profile.credits_per_month ?? 0;
  // Only subscription credits are capped at a renewal: one month's carries over, the rest goes.
  const subscriptionCredits = profile.subscription_credits ?? 0;
  const rolloverCredits = Math.min(subscriptionCredits, creditsPerMonth);
  return {
    tierId: profile.tier_id,
    tierName: profile.subscription_tier ?? '',
    status,
    creditsPerMonth,
    nextRenewalDate: profile.next_renewal_date,
    lastRefreshDate: profile.last_credit_refresh_date,
    rolloverCredits,
    forfeitAtRenewal: subscriptionCredits - rolloverCredits,
    needsRefresh:
      manualRefresh &&
      status === 'active' &&
      profile.next_renewal_date !== null &&
      profile.next_renewal_date <= today,
  };
};

export const meView = (profile: Profile, context: SubscriptionContext): Me => ({
  id: profile.id,
  email: profile.email ?? '',
  fullName: profile.full_name,
  firstName: profile.first_name,
  lastName: profile.last_name,
  birthDate: profile.birth_date,
  birthTime: profile.birth_time,
  birthTimeUnknown: profile.birth_time_unknown === true,
  birthCity: profile.birth_city,
  birthCountry: profile.birth_country,
  birthPlace: profile.birth_place ? placeView(profile.birth_place) : null,
  language: profile.language,
  avatarUrl: profile.avatar_url,
  role: profile.role === 'admin' ? 'admin' : 'user',
  status: profile.status as Me['status'],
  remainingCredits: profile.remaining_credits,
  totalCredits: profile.credits,
  creditLots: creditLotsOf(profile),
  subscription: subscriptionOf(profile, context),
  createdAt: iso(profile.created_at),
});

export const ledgerEntryView = (entry: LedgerEntry): LedgerEntryView => ({
  eventId: entry.event_id,
  type: entry.type,
  amount: entry.amount,
  balanceAfter: entry.balance_after,
  totalAfter: entry.credits_after,
  occurredAt: iso(entry.occurred_at),
  reason: ledgerEntryDescription(entry),
  actor: {
    kind: entry.actor_kind as LedgerEntryView['actor']['kind'],
    id: entry.actor_id,
    role: entry.actor_role,
  },
  reference: entry.reference,
  position: entry.position,
  revision: Number(entry.stream_revision),
  kind: entry.kind,
  details: entry.details,
});
