import {
  type AdminStats,
  type AdminStatsMoney,
  adminStatsMoneySchema,
  adminStatsSchema,
} from '@astra/contracts';
import type { ReadDb } from '@astra/projections';
import { sql } from 'kysely';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';

/** The days a dashboard series covers: today (UTC) and the 29 before it. */
export const SERIES_DAYS = 30;
const DAY_MS = 86_400_000;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * One query, one row: the counters (null without their row) and, as JSON, the days from `from`
 * to `to` that had figures.
 */
const buildStatsQuery = (read: ReadDb, from: string, to: string, code: string) =>
  read
    .selectFrom(sql<{ one: number }>`(VALUES (1))`.as('one'))
    .leftJoin('admin_stats as totals', (join) => join.on('totals.id', '=', 1))
    .select((eb) => [
      'totals.total_users',
      'totals.active_users',
      'totals.blocked_users',
      'totals.deleted_users',
      'totals.total_credits_used',
      'totals.as_of',
      eb
        .selectFrom('admin_stats_daily')
        .select(
          sql<
            [string, string, string, string | null][]
          >`json_agg(json_build_array(day::text, signups::text, credits_used::text, revenue_minor ->> ${code}))`.as(
            'days',
          ),
        )
        .where('day', '>=', sql<string>`${from}::date`)
        .where('day', '<=', sql<string>`${to}::date`)
        .as('daily'),
    ])
    .compile();

/**
 * The query is compiled (built, put in the read models' schema, written as SQL) once for a
 * range of days and a currency, and run as it is until the day changes. Only the SQL is kept:
 * every call reads the figures from the database.
 */
const compiled = new WeakMap<ReadDb, { key: string; query: ReturnType<typeof buildStatsQuery> }>();
const statsQuery = (read: ReadDb, from: string, to: string, code: string) => {
  const key = `${from} ${to} ${code}`;
  let entry = compiled.get(read);
  if (entry?.key !== key) {
    entry = { key, query: buildStatsQuery(read, from, to, code) };
    compiled.set(read, entry);
  }
  return entry.query;
};

/**
 * The admin dashboard's figures (`adminStatsSchema`), read from the `admin_stats` projection:
 * its one row of counters and at most 31 daily rows (the last 30 days, and the rest of this
 * month when it began earlier), in one query. `revenueThisMonthMinor` and its series are the cash
 * the ledger recorded in the pricing currency, net of refunds, in minor units; days without an
 * event are 0. This month's money in every currency comes from `money` (caught up by the caller).
 */
export async function adminStatsOf(read: ReadDb, currency: string, now: Date): Promise<AdminStats> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: SERIES_DAYS }, (_, i) =>
    isoDay(new Date(today - (SERIES_DAYS - 1 - i) * DAY_MS)),
  );
  const monthStart = isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  const from = monthStart < days[0]! ? monthStart : days[0]!;
  const code = currency.toLowerCase();
  const [totals] = (await read.executeQuery(statsQuery(read, from, days.at(-1)!, code))).rows;
  if (!totals) throw new Error('The admin stats query answered no row');
  const byDay = new Map(
    (totals.daily ?? []).map(([day, signups, creditsUsed, revenue]) => [
      day,
      {
        signups: Number(signups),
        creditsUsed: Number(creditsUsed),
        revenueMinor: Number(revenue ?? 0),
      },
    ]),
  );
  const series = (figure: 'signups' | 'creditsUsed' | 'revenueMinor') =>
    days.map((day) => ({ day, value: byDay.get(day)?.[figure] ?? 0 }));
  let revenueThisMonthMinor = 0;
  for (const [day, figures] of byDay) {
    if (day >= monthStart) revenueThisMonthMinor += figures.revenueMinor;
  }
  return {
    totalUsers: Number(totals.total_users ?? 0),
    activeUsers: Number(totals.active_users ?? 0),
    blockedUsers: Number(totals.blocked_users ?? 0),
    deletedUsers: Number(totals.deleted_users ?? 0),
    totalCreditsUsed: Number(totals.total_credits_used ?? 0),
    revenueThisMonthMinor,
    currency: code,
    asOf: totals.as_of ? new Date(totals.as_of).toISOString() : null,
    series: {
      signups: series('signups'),
      creditsUsed: series('creditsUsed'),
      revenueMinor: series('revenueMinor'),
    },
  };
}

const descriptors = {
  adminStats: {
    method: 'get',
    path: '/api/admin/stats',
    tag: 'Admin',
    summary:
      "The dashboard's figures and their last 30 UTC days, from the read models, with the moment they are as of",
    auth: 'unlocked_admin',
    responses: ok(adminStatsSchema),
    errors: [],
  },
  adminStatsMoney: {
    method: 'get',
    path: '/api/admin/stats/money',
    tag: 'Admin',
    summary:
      "This month's recognized revenue and cash in every currency, as the month report counts them",
    auth: 'unlocked_admin',
    responses: ok(adminStatsMoneySchema),
    errors: [],
  },
} satisfies RouteDescriptors;

/**
 * `GET /api/admin/stats` (an unlocked admin): the projections' figures. `GET
 * /api/admin/stats/money`: this month's money, the month report's fold of the log kept in this
 * process (`deps.monthMoney`): it folds in what was appended since it was last asked (the whole
 * log the first time; an unlock starts that, before the dashboard asks).
 */
export const adminStatsRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { read, payments, clock, monthMoney } = deps;
  route('adminStats', requireUser, requireUnlockedAdmin, async (_req, res) => {
    res.json(await adminStatsOf(read, payments.pricing.currency, clock()));
  });
  route('adminStatsMoney', requireUser, requireUnlockedAdmin, async (_req, res) => {
    await monthMoney.catchUp();
    const { calendar } = monthMoney;
    const month = calendar.monthOf(clock().toISOString());
    const answer: AdminStatsMoney = {
      month,
      timeZone: calendar.timeZone,
      ...calendar.monthRange(month),
      money: monthMoney.month(month).map((line) => ({
        currency: line.currency,
        recognizedMinor: line.recognized,
        cashInMinor: line.cashIn,
        refundsMinor: line.refunds,
        cashNetMinor: line.cashIn - line.refunds,
      })),
      through: String(monthMoney.through),
    };
    res.json(answer);
  });
});
