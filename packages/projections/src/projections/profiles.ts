import {
  type BirthPlaceRecord,
  type CreditEvent,
  creditEventSchemas,
  isEventOf,
  type UserEvent,
  userEventSchemas,
} from '@astra/contracts';
import {
  balanceChange,
  type CreditLot,
  grantedBy,
  joinName,
  lotsAfter,
  lotTotals,
} from '@astra/ledger';
import type { Profile } from '../schema.ts';
import { occurredAt } from './projection.ts';
import { rowProjection } from './rowProjection.ts';

type Row = Omit<
  Profile,
  | 'created_at'
  | 'updated_at'
  | 'subscription_update_date'
  | 'cancellation_date'
  | 'credit_lots'
  | 'birth_place'
  | 'erased_at'
> & {
  credit_lots: CreditLot[];
  birth_place: BirthPlaceRecord | null;
  created_at: Date;
  updated_at: Date;
  subscription_update_date: Date | null;
  cancellation_date: Date | null;
  erased_at: Date | null;
};

const blank = (id: string, at: Date): Row => ({
  id,
  email: null,
  full_name: null,
  first_name: null,
  last_name: null,
  avatar_url: null,
  birth_date: null,
  birth_time: null,
  birth_time_unknown: null,
  birth_city: null,
  birth_country: null,
  birth_place: null,
  language: null,
  remaining_credits: 0,
  credits: 0,
  credits_per_month: null,
  credits_rollover_remaining: null,
  credit_lots: [],
  subscription_credits: 0,
  free_credits: 0,
  promotional_credits: 0,
  purchased_credits: 0,
  tier_id: null,
  subscription_tier: null,
  subscription_type: null,
  subscription_status: null,
  subscription_id: null,
  next_renewal_date: null,
  last_credit_refresh_date: null,
  subscription_update_date: null,
  status: 'active',
  cancellation_date: null,
  role: 'user',
  created_at: at,
  updated_at: at,
  erased_at: null,
  user_revision: '-1',
  credits_revision: '-1',
});

const profileColumns: Record<string, keyof Row> = {
  firstName: 'first_name',
  lastName: 'last_name',
  birthDate: 'birth_date',
  birthTime: 'birth_time',
  birthTimeUnknown: 'birth_time_unknown',
  birthCity: 'birth_city',
  birthCountry: 'birth_country',
  language: 'language',
};

/**
 * The row of an erased user keeps ids, status, role, language, credit figures and dates: every
 * personal column is null (what a rebuild gives too, the events' personal fields read as erased).
 */
const erasePersonalData = (row: Row, at: Date) => {
  row.email = null;
  row.full_name = null;
  row.first_name = null;
  row.last_name = null;
  row.avatar_url = null;
  row.birth_date = null;
  row.birth_time = null;
  row.birth_time_unknown = null;
  row.birth_city = null;
  row.birth_country = null;
  row.birth_place = null;
  row.erased_at = at;
};

/** Applies a user event to the row (the row belongs to the projection alone). */
const applyUserEvent = (row: Row, event: UserEvent, at: Date) => {
  switch (event.type) {
    case 'UserRegistered':
      row.email = event.data.email;
      row.full_name = event.data.fullName;
      row.first_name = event.data.firstName;
      row.last_name = event.data.lastName;
      row.avatar_url = event.data.avatarUrl;
      row.created_at = at;
      return;
    case 'UserProfileUpdated':
      for (const [field, value] of Object.entries(event.data)) {
        const column = profileColumns[field];
        if (column) (row as Record<string, unknown>)[column] = value;
      }
      if ('firstName' in event.data || 'lastName' in event.data) {
        row.full_name = joinName(row.first_name, row.last_name);
      }
      return;
    case 'UserBirthPlaceChanged':
      row.birth_place = event.data.birthPlace;
      return;
    case 'UserAvatarChanged':
      row.avatar_url = event.data.avatarUrl;
      return;
    case 'UserRoleChanged':
      row.role = event.data.role;
      return;
    case 'UserBlocked':
      row.status = 'blocked';
      return;
    case 'UserUnblocked':
      row.status = 'active';
      return;
    case 'UserDeleted':
      row.status = 'deleted';
      row.cancellation_date = at;
      return;
    case 'PersonalDataErased':
      erasePersonalData(row, at);
      return;
    case 'AdminUnlocked': // an admin's unlock attempts change no profile field
    case 'AdminUnlockFailed':
    case 'AdminUnlockRefused': // nor does anything else the audit trail records of an admin
    case 'AdminLocked':
    case 'AdminExportStarted':
    case 'AdminDataExported':
    case 'AdminVerifyRun':
    case 'AdminRebuildStarted':
      return;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown user event ${JSON.stringify(exhaustive)}`);
    }
  }
};

const endSubscription = (row: Row) => {
  row.credits_per_month = null;
  row.tier_id = null;
  row.subscription_tier = null;
  row.subscription_type = null;
  row.subscription_status = null;
  row.subscription_id = null;
  row.next_renewal_date = null;
};

/** Applies a credit event to the row (the row belongs to the projection alone). */
const applyCreditEvent = (row: Row, event: CreditEvent, at: Date) => {
  row.remaining_credits += balanceChange(event);
  row.credits += grantedBy(event);
  row.credit_lots = [...lotsAfter(row.credit_lots, event)];
  const totals = lotTotals(row.credit_lots);
  row.subscription_credits = totals.subscription;
  row.free_credits = totals.free;
  row.promotional_credits = totals.promotional;
  row.purchased_credits = totals.purchased;
  switch (event.type) {
    case 'SubscriptionActivated':
      row.credits_per_month = event.data.creditsPerMonth;
      row.tier_id = event.data.tierId;
      row.subscription_tier = event.data.tierName;
      row.subscription_type = 'subscription';
      row.subscription_status = 'active';
      row.subscription_id = event.data.subscriptionId;
      row.next_renewal_date = event.data.nextRenewalDate;
      row.subscription_update_date = at;
      return;
    case 'MonthlyCreditsGranted':
      row.next_renewal_date = event.data.nextRenewalDate;
      row.last_credit_refresh_date = event.data.grantedOn;
      row.credits_rollover_remaining = event.data.rolledOver;
      return;
    case 'SubscriptionPlanChanged':
      row.credits_per_month = event.data.creditsPerMonth;
      row.tier_id = event.data.tierId;
      row.subscription_tier = event.data.tierName;
      row.subscription_update_date = at;
      return;
    case 'SubscriptionCancelled':
      row.subscription_status = 'cancelled';
      row.subscription_update_date = at;
      return;
    case 'SubscriptionEnded':
      endSubscription(row);
      row.subscription_update_date = at;
      return;
    default:
      return;
  }
};

const isUserEvent = isEventOf(userEventSchemas);

/** `profiles`: identity and birth data from `user-{id}`, balances and subscription from `credits-{id}`. */
export const profilesProjection = rowProjection({
  name: 'profiles',
  table: 'profiles',
  key: 'id',
  categories: { user: userEventSchemas, credits: creditEventSchemas },
  revision: (event) => (event.stream.startsWith('user-') ? 'user_revision' : 'credits_revision'),
  decode: (row): Row => row,
  encode: (row) => ({
    ...row,
    credit_lots: JSON.stringify(row.credit_lots),
    birth_place: row.birth_place && JSON.stringify(row.birth_place),
  }),
  evolve(row, event, id) {
    const at = occurredAt(event);
    row ??= blank(id, at);
    if (isUserEvent(event)) {
      applyUserEvent(row, event, at);
    } else {
      applyCreditEvent(row, event, at);
    }
    row.updated_at = at;
    return row;
  },
});
