import {
  type CreditEvent,
  creditEventSchemas,
  type Decoded,
  userEventSchemas,
} from '@astra/contracts';
import { grantedBy } from '@astra/ledger';
import { CompiledQuery } from 'kysely';
import { prepareInsert, runStatements, writeRowsQuery } from '../bulkInsert.ts';
import type { ReadDb } from '../database.ts';
import {
  applyingWrites,
  chunks,
  inCategory,
  type LogEvent,
  occurredAt,
  type Projection,
} from './projection.ts';

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

/** What a batch (or a whole replay) moves: the counters, the days and the users' standing. */
interface Tally {
  delta: {
    total_users: number;
    active_users: number;
    blocked_users: number;
    deleted_users: number;
    total_credits_used: number;
    total_credits_granted: number;
  };
  days: Map<string, DayDelta>;
  /** The newest applied event's `occurredAt`. */
  asOf: Date | null;
}

const emptyTally = (): Tally => ({
  delta: {
    total_users: 0,
    active_users: 0,
    blocked_users: 0,
    deleted_users: 0,
    total_credits_used: 0,
    total_credits_granted: 0,
  },
  days: new Map(),
  asOf: null,
});

const blank = (): Known => ({ status: null, user_revision: -1n, credits_revision: -1n });
const DAY_MS = 86_400_000;

/** Counts the events not counted yet into `tally`, moving each user's standing in `known`. */
function count(
  tally: Tally,
  known: Map<string, Known>,
  users: ReturnType<typeof inCategory<typeof userEventSchemas>>,
  credits: ReturnType<typeof inCategory<typeof creditEventSchemas>>,
) {
  const { delta, days } = tally;
  let current: { from: number; delta: DayDelta } = { from: Number.NaN, delta: undefined! };
  /** The day of an applied event, which becomes the newest applied when it is. */
  const dayOf = (event: Decoded) => {
    const at = occurredAt(event);
    if (tally.asOf === null || at > tally.asOf) tally.asOf = at;
    // Consecutive events mostly share a day: its name is made once, not for every event.
    const time = at.getTime();
    if (!(time >= current.from && time < current.from + DAY_MS)) {
      const day = at.toISOString().slice(0, 10);
      let delta = days.get(day);
      if (!delta) {
        delta = { signups: 0, credits_used: 0, revenue: new Map() };
        days.set(day, delta);
      }
      current = { from: Date.parse(day), delta };
    }
    return current.delta;
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
    user.status = after ?? user.status;
    user.user_revision = event.revision;
    known.set(id, user);
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
    user.credits_revision = event.revision;
    known.set(id, user);
  }
}

const userRows = (known: Map<string, Known>, ids: Iterable<string>) =>
  [...ids].map((user_id) => {
    const user = known.get(user_id)!;
    return {
      user_id,
      status: user.status,
      user_revision: user.user_revision.toString(),
      credits_revision: user.credits_revision.toString(),
    };
  });

/**
 * A tally's days added to the stored ones (of the transaction's `search_path`), and its counters
 * to the stored counters: statements written once as text (see `writeRowsQuery`). A day's
 * revenue adds up by currency: the stored object and this one, key by key.
 */
const ADD_DAYS = `
INSERT INTO admin_stats_daily AS stored (day, signups, credits_used, revenue_minor)
SELECT * FROM unnest($1::date[], $2::bigint[], $3::bigint[], $4::jsonb[])
ON CONFLICT (day) DO UPDATE SET
  signups = stored.signups + excluded.signups,
  credits_used = stored.credits_used + excluded.credits_used,
  revenue_minor = (
    SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb)
    FROM (
      SELECT key, sum(value::bigint) AS total
      FROM (
        SELECT * FROM jsonb_each_text(stored.revenue_minor)
        UNION ALL
        SELECT * FROM jsonb_each_text(excluded.revenue_minor)
      ) AS entries
      GROUP BY key
    ) AS sums
  )`;

const ADD_COUNTERS = `
UPDATE admin_stats SET
  total_users = total_users + $1,
  active_users = active_users + $2,
  blocked_users = blocked_users + $3,
  deleted_users = deleted_users + $4,
  total_credits_used = total_credits_used + $5,
  total_credits_granted = total_credits_granted + $6,
  as_of = GREATEST(as_of, $7::timestamptz)
WHERE id = 1`;

/** The statements that add a tally to the stored days and counters. */
function tallyWrites({ delta, days, asOf }: Tally): CompiledQuery[] {
  // Every applied event tallies its day (before anything else): no days, nothing applied.
  if (days.size === 0) return [];
  const rows = [...days];
  return [
    CompiledQuery.raw(ADD_DAYS, [
      rows.map(([day]) => day),
      rows.map(([, d]) => d.signups),
      rows.map(([, d]) => d.credits_used),
      rows.map(([, d]) => JSON.stringify(Object.fromEntries(d.revenue))),
    ]),
    CompiledQuery.raw(ADD_COUNTERS, [
      delta.total_users,
      delta.active_users,
      delta.blocked_users,
      delta.deleted_users,
      delta.total_credits_used,
      delta.total_credits_granted,
      asOf?.toISOString() ?? null,
    ]),
  ];
}

/** The batch's writes: its users' standing, and its tally. */
async function adminStatsWrites(db: ReadDb, events: readonly LogEvent[]) {
  const users = inCategory(events, 'user', userEventSchemas);
  const credits = inCategory(events, 'credits', creditEventSchemas);
  if (users.length + credits.length === 0) return [];
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
  const tally = emptyTally();
  count(tally, known, users, credits);
  const standing = writeRowsQuery('admin_stats_users', userRows(known, ids), 'user_id');
  return [...(standing ? [standing] : []), ...tallyWrites(tally)];
}

/**
 * `admin_stats`: the admin dashboard's counters, moved by each event exactly once, the moment
 * they are as of (the newest applied event's `occurredAt`), and `admin_stats_daily`: per UTC day
 * of `occurredAt`, signups, credits used and revenue by currency. Every day that had an applied
 * user or credit event has a row (zeros included), so the rows do not depend on the batches.
 */
export const adminStatsProjection: Projection = {
  name: 'admin_stats',
  tables: ['admin_stats', 'admin_stats_users', 'admin_stats_daily'],
  categories: ['user', 'credits'],
  writes: adminStatsWrites,
  apply: applyingWrites(adminStatsWrites),
  replay() {
    // The whole replay is one tally, and every user's standing stays in memory: written at the end.
    const known = new Map<string, Known>();
    const tally = emptyTally();
    return {
      fold(events) {
        count(
          tally,
          known,
          inCategory(events, 'user', userEventSchemas),
          inCategory(events, 'credits', creditEventSchemas),
        );
      },
      flush(final) {
        if (!final) return [];
        return [
          prepareInsert('admin_stats_users', userRows(known, known.keys())),
          (db) => runStatements(db, tallyWrites(tally)),
        ];
      },
    };
  },
};
