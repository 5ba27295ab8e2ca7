import type { AdminStats } from '@astra/contracts';
import type { ReadDb } from '@astra/projections';
import { Router } from 'express';
import { sql } from 'kysely';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';

/** The days a dashboard series covers: today (UTC) and the 29 before it. */
export const SERIES_DAYS = 30;
const DAY_MS = 86_400_000;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The admin dashboard's figures (`adminStatsSchema`), read from the `admin_stats` projection:
 * its one row of counters and at most 31 daily rows (the last 30 days, and the rest of this
 * month when it began earlier). Revenue is the money the ledger recorded in the pricing
 * currency, net of refunds, in minor units; days without an event are 0.
 */
export async function adminStatsOf(read: ReadDb, currency: string, now: Date): Promise<AdminStats> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: SERIES_DAYS }, (_, i) =>
    isoDay(new Date(today - (SERIES_DAYS - 1 - i) * DAY_MS)),
  );
  const monthStart = isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  const from = monthStart < days[0]! ? monthStart : days[0]!;
  const code = currency.toLowerCase();
  const [totals, rows] = await Promise.all([
    read
      .selectFrom('admin_stats')
      .select(['total_users', 'active_users', 'total_credits_used', 'as_of'])
      .where('id', '=', 1)
      .executeTakeFirst(),
    read
      .selectFrom('admin_stats_daily')
      .select([
        sql<string>`day::text`.as('day'),
        sql<string>`signups::text`.as('signups'),
        sql<string>`credits_used::text`.as('credits_used'),
        sql<string | null>`revenue_minor ->> ${code}`.as('revenue'),
      ])
      .where('day', '>=', sql<string>`${from}::date`)
      .where('day', '<=', sql<string>`${days.at(-1)!}::date`)
      .execute(),
  ]);
  const byDay = new Map(
    rows.map((row) => [
      row.day,
      {
        signups: Number(row.signups),
        creditsUsed: Number(row.credits_used),
        revenueMinor: Number(row.revenue ?? 0),
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
    totalUsers: Number(totals?.total_users ?? 0),
    activeUsers: Number(totals?.active_users ?? 0),
    totalCreditsUsed: Number(totals?.total_credits_used ?? 0),
    revenueThisMonthMinor,
    currency: code,
    asOf: totals?.as_of ? new Date(totals.as_of).toISOString() : null,
    series: {
      signups: series('signups'),
      creditsUsed: series('creditsUsed'),
      revenueMinor: series('revenueMinor'),
    },
  };
}

/** `GET /api/admin/stats` (an unlocked admin). */
export function adminStatsRoutes({ read, payments, clock }: AppDeps) {
  const router = Router();
  router.get('/admin/stats', requireUser, requireUnlockedAdmin, async (_req, res) => {
    res.json(await adminStatsOf(read, payments.pricing.currency, clock()));
  });
  return router;
}
