import { type CreditEvent, creditEventSchemas, userEventSchemas } from '@astra/contracts';
import { grantedBy } from '@astra/ledger';
import { sql } from 'kysely';
import { chunks, inCategory, occurredAt, type Projection } from './projection.ts';

type Counter = 'active_users' | 'blocked_users' | 'deleted_users';
const counterOf: Record<string, Counter> = {
  active: 'active_users',
  blocked: 'blocked_users',
  deleted: 'deleted_users',
};
const statusAfter: Record<string, string> = {
  UserRegistered: 'active',
  UserBlocked: 'blocked',
  UserUnblocked: 'active',
  UserDeleted: 'deleted',
};

interface Known {
  status: string | null;
  user_revision: bigint;
  credits_revision: bigint;
}

/** One UTC day's change to the dashboard's series. */
interface DayDelta {
  signups: number;
  credits_used: number;
  /** By currency (lower case), minor units; a currency the day touched stays, even at 0. */
  revenue: Map<string, number>;
}

/** The money an event adds to (or takes from) revenue, with its currency. */
const moneyOf = (credit: CreditEvent): { currency: string; minor: number } | null => {
  switch (credit.type) {
    case 'CreditsGranted':
    case 'MonthlyCreditsGranted':
      return credit.data.payment
        ? {
            currency: credit.data.payment.currency.toLowerCase(),
            minor: credit.data.payment.amountMinor,
          }
        : null;
    case 'PaymentRefunded':
      return { currency: credit.data.currency.toLowerCase(), minor: -credit.data.amountMinor };
    default:
      return null;
  }
};

/**
 * `admin_stats`: the admin dashboard's counters, moved by each event exactly once, the moment
 * they are as of (the newest applied event's `occurredAt`), and `admin_stats_daily`: per UTC day
 * of `occurredAt`, signups, credits used and revenue by currency. Every day that had an applied
 * user or credit event has a row (zeros included), so the rows do not depend on the batches.
 */
export const adminStatsProjection: Projection = {
  name: 'admin_stats',
  tables: ['admin_stats', 'admin_stats_users', 'admin_stats_daily'],
  async apply(db, events) {
    const users = inCategory(events, 'user', userEventSchemas);
    const credits = inCategory(events, 'credits', creditEventSchemas);
    if (users.length + credits.length === 0) return;
    const delta = {
      total_users: 0,
      active_users: 0,
      blocked_users: 0,
      deleted_users: 0,
      total_credits_used: 0,
      total_credits_granted: 0,
    };
    const ids = [...new Set([...users, ...credits].map((u) => u.id))];
    const known = new Map<string, Known>();
    for (const part of chunks(ids, 1000)) {
      for (const row of await db
        .selectFrom('admin_stats_users')
        .selectAll()
        .where('user_id', 'in', part)
        .execute()) {
        known.set(row.user_id, {
          status: row.status,
          user_revision: BigInt(row.user_revision),
          credits_revision: BigInt(row.credits_revision),
        });
      }
    }
    const blank = (): Known => ({ status: null, user_revision: -1n, credits_revision: -1n });
    const days = new Map<string, DayDelta>();
    let asOf: Date | null = null;
    /** The day of an applied event, which becomes the newest applied when it is. */
    const dayOf = (event: (typeof events)[number]) => {
      const at = occurredAt(event);
      if (asOf === null || at > asOf) asOf = at;
      const day = at.toISOString().slice(0, 10);
      let delta = days.get(day);
      if (!delta) {
        delta = { signups: 0, credits_used: 0, revenue: new Map() };
        days.set(day, delta);
      }
      return delta;
    };

    for (const { id, event } of users) {
      const user = known.get(id) ?? blank();
      if (event.revision <= user.user_revision) continue; // counted already
      const day = dayOf(event);
      if (event.type === 'UserRegistered') day.signups++;
      const after = statusAfter[event.type];
      if (after && after !== user.status) {
        if (user.status === null) delta.total_users++;
        else delta[counterOf[user.status]!]--;
        delta[counterOf[after]!]++;
      }
      known.set(id, { ...user, status: after ?? user.status, user_revision: event.revision });
    }
    for (const { id, event } of credits) {
      const user = known.get(id) ?? blank();
      if (event.revision <= user.credits_revision) continue;
      const credit = event;
      const day = dayOf(event);
      const used =
        credit.type === 'CreditsSpent'
          ? credit.data.amount
          : credit.type === 'SpendRefunded'
            ? -credit.data.amount
            : 0;
      delta.total_credits_used += used;
      day.credits_used += used;
      const money = moneyOf(credit);
      if (money) {
        day.revenue.set(money.currency, (day.revenue.get(money.currency) ?? 0) + money.minor);
      }
      delta.total_credits_granted += grantedBy(credit);
      known.set(id, { ...user, credits_revision: event.revision });
    }

    for (const part of chunks(ids, 1000)) {
      await db
        .insertInto('admin_stats_users')
        .values(
          part.map((user_id) => {
            const user = known.get(user_id)!;
            return {
              user_id,
              status: user.status,
              user_revision: user.user_revision.toString(),
              credits_revision: user.credits_revision.toString(),
            };
          }),
        )
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            user_revision: eb.ref('excluded.user_revision'),
            credits_revision: eb.ref('excluded.credits_revision'),
          })),
        )
        .execute();
    }
    if (days.size > 0) {
      // A day's revenue adds up by currency: the stored object and this batch's, key by key.
      await db
        .insertInto('admin_stats_daily')
        .values(
          [...days].map(([day, d]) => ({
            day,
            signups: d.signups,
            credits_used: d.credits_used,
            revenue_minor: JSON.stringify(Object.fromEntries(d.revenue)),
          })),
        )
        .onConflict((oc) =>
          oc.column('day').doUpdateSet({
            signups: sql`admin_stats_daily.signups + excluded.signups`,
            credits_used: sql`admin_stats_daily.credits_used + excluded.credits_used`,
            revenue_minor: sql`(
              SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb)
              FROM (
                SELECT key, sum(value::bigint) AS total
                FROM (
                  SELECT * FROM jsonb_each_text(admin_stats_daily.revenue_minor)
                  UNION ALL
                  SELECT * FROM jsonb_each_text(excluded.revenue_minor)
                ) AS entries
                GROUP BY key
              ) AS sums
            )`,
          }),
        )
        .execute();
    }
    const moment = asOf as Date | null;
    if (moment !== null || Object.values(delta).some((n) => n !== 0)) {
      await db
        .updateTable('admin_stats')
        .set((eb) => ({
          ...Object.fromEntries(
            Object.entries(delta).map(([column, n]) => [
              column,
              eb(eb.ref(column as 'total_users'), '+', n),
            ]),
          ),
          ...(moment
            ? { as_of: sql<Date>`GREATEST(as_of, ${moment.toISOString()}::timestamptz)` }
            : {}),
        }))
        .where('id', '=', 1)
        .execute();
    }
  },
};
