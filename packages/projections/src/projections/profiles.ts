import type { CreditEvent, UserEvent } from '@astra/contracts';
import type { RecordedEvent } from '@astra/event-store';
import { balanceChange, grantedBy, joinName } from '@astra/ledger';
import type { NewProfile, Profile } from '../schema.ts';
import { chunks, inCategory, occurredAt, type Projection } from './projection.ts';

type Row = Omit<
  Profile,
  'created_at' | 'updated_at' | 'subscription_update_date' | 'cancellation_date'
> & {
  created_at: Date;
  updated_at: Date;
  subscription_update_date: Date | null;
  cancellation_date: Date | null;
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
  birth_city: null,
  birth_country: null,
  language: null,
  remaining_credits: 0,
  credits: 0,
  credits_per_month: null,
  credits_rollover_remaining: null,
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
  user_revision: '-1',
  credits_revision: '-1',
});

const profileColumns: Record<string, keyof Row> = {
  firstName: 'first_name',
  lastName: 'last_name',
  birthDate: 'birth_date',
  birthTime: 'birth_time',
  birthCity: 'birth_city',
  birthCountry: 'birth_country',
  language: 'language',
};

const applyUserEvent = (row: Row, event: UserEvent, at: Date): Row => {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...row,
        email: event.data.email,
        full_name: event.data.fullName,
        first_name: event.data.firstName,
        last_name: event.data.lastName,
        avatar_url: event.data.avatarUrl,
        created_at: at,
      };
    case 'UserProfileUpdated': {
      const next = { ...row };
      for (const [field, value] of Object.entries(event.data)) {
        const column = profileColumns[field];
        if (column) (next as Record<string, unknown>)[column] = value;
      }
      if ('firstName' in event.data || 'lastName' in event.data) {
        next.full_name = joinName(next.first_name, next.last_name);
      }
      return next;
    }
    case 'UserAvatarChanged':
      return { ...row, avatar_url: event.data.avatarUrl };
    case 'UserRoleChanged':
      return { ...row, role: event.data.role };
    case 'UserBlocked':
      return { ...row, status: 'blocked' };
    case 'UserUnblocked':
      return { ...row, status: 'active' };
    case 'UserDeleted':
      return { ...row, status: 'deleted', cancellation_date: at };
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown user event ${JSON.stringify(exhaustive)}`);
    }
  }
};

const withoutSubscription = {
  credits_per_month: null,
  tier_id: null,
  subscription_tier: null,
  subscription_type: null,
  subscription_status: null,
  subscription_id: null,
  next_renewal_date: null,
};

const applyCreditEvent = (current: Row, event: CreditEvent, at: Date): Row => {
  const row = {
    ...current,
    remaining_credits: current.remaining_credits + balanceChange(event),
    credits: current.credits + grantedBy(event),
  };
  switch (event.type) {
    case 'SubscriptionActivated':
      return {
        ...row,
        credits_per_month: event.data.creditsPerMonth,
        tier_id: event.data.tierId,
        subscription_tier: event.data.tierName,
        subscription_type: 'subscription',
        subscription_status: 'active',
        subscription_id: event.data.subscriptionId,
        next_renewal_date: event.data.nextRenewalDate,
        subscription_update_date: at,
      };
    case 'MonthlyCreditsGranted':
      return {
        ...row,
        next_renewal_date: event.data.nextRenewalDate,
        last_credit_refresh_date: event.data.grantedOn,
        credits_rollover_remaining: event.data.rolledOver,
      };
    case 'SubscriptionCancelled':
      return { ...row, subscription_status: 'cancelled', subscription_update_date: at };
    case 'SubscriptionEnded':
      return { ...row, ...withoutSubscription, subscription_update_date: at };
    default:
      return row;
  }
};

const asValues = (row: Row): NewProfile => row;

/** `profiles`: identity and birth data from `user-{id}`, balances and subscription from `credits-{id}`. */
export const profilesProjection: Projection = {
  name: 'profiles',
  tables: ['profiles'],
  async apply(db, events) {
    const touched = [...inCategory(events, 'user'), ...inCategory(events, 'credits')].sort(
      (a, b) => (a.event.position < b.event.position ? -1 : 1),
    );
    if (touched.length === 0) return;
    const ids = [...new Set(touched.map((t) => t.id))];
    const rows = new Map<string, Row>();
    for (const part of chunks(ids, 1000)) {
      for (const row of await db
        .selectFrom('profiles')
        .selectAll()
        .where('id', 'in', part)
        .execute()) {
        rows.set(row.id, row as Row);
      }
    }
    const changed = new Set<string>();
    for (const { id, event } of touched) {
      const at = occurredAt(event);
      const before = rows.get(id) ?? blank(id, at);
      const revisionColumn = event.stream.startsWith('user-')
        ? 'user_revision'
        : 'credits_revision';
      if (event.revision <= BigInt(before[revisionColumn])) continue; // applied already
      const after =
        revisionColumn === 'user_revision'
          ? applyUserEvent(before, event as RecordedEvent & UserEvent, at)
          : applyCreditEvent(before, event as RecordedEvent & CreditEvent, at);
      rows.set(id, { ...after, [revisionColumn]: event.revision.toString(), updated_at: at });
      changed.add(id);
    }
    for (const part of chunks([...changed], 500)) {
      const values = part.map((id) => asValues(rows.get(id)!));
      await db
        .insertInto('profiles')
        .values(values)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) =>
            Object.fromEntries(
              Object.keys(values[0]!)
                .filter((column) => column !== 'id')
                .map((column) => [column, eb.ref(`excluded.${column}` as 'excluded.id')]),
            ),
          ),
        )
        .execute();
    }
  },
};
