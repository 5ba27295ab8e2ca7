import { createHash } from 'node:crypto';
import {
  monthlyReportQuerySchema,
  monthlyReportSchema,
  payoutReportQuerySchema,
  payoutReportSchema,
} from '@astra/contracts';
import { monthlyReport, monthlyReportCsvOf, payoutReport } from '@astra/projections';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import {
  badQuery,
  describedRouter,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { recordAdminAction } from '../admin/adminRecords.ts';

const descriptors = {
  adminMonthlyReport: {
    method: 'get',
    path: '/api/admin/reports/monthly',
    tag: 'Admin',
    summary:
      'The month’s credit and money roll-forward by replaying the log (`format=csv` for a CSV)',
    auth: 'unlocked_admin',
    query: monthlyReportQuerySchema,
    responses: ok(monthlyReportSchema),
    readsLog: true,
    errors: [badQuery('`month` is not YYYY-MM')],
  },
  adminPayoutReport: {
    method: 'get',
    path: '/api/admin/reports/payouts',
    tag: 'Admin',
    summary:
      'The payouts reaching the bank in the month, each tied to its balance transactions: charges − refunds − fees ± disputes = the amount paid out',
    auth: 'unlocked_admin',
    query: payoutReportQuerySchema,
    responses: ok(payoutReportSchema),
    readsLog: true,
    errors: [badQuery('`month` is not YYYY-MM')],
  },
} satisfies RouteDescriptors;

/**
 * `GET /api/admin/reports/monthly?month=YYYY-MM[&format=csv]`: the month's roll-forward, by
 * replay; `GET /api/admin/reports/payouts?month=YYYY-MM`: the month's payouts tied to the bank.
 */
export const reportRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  route('adminMonthlyReport', requireUser, requireUnlockedAdmin, async (req, res) => {
    const { month, format } = monthlyReportQuerySchema.parse(req.query);
    const report = await monthlyReport(deps.ledger.store, month, deps.config.FINANCE_TIME_ZONE);
    res.setHeader('Cache-Control', 'no-store');
    // The body is made here, so its checksum is known before it is sent, and recorded first. The
    // CSV is the download; the JSON is the Finance page's view of the month, not recorded (every
    // visit of the page would be), and holds no customer's data.
    const body = Buffer.from(
      format === 'json'
        ? JSON.stringify(report)
        : await monthlyReportCsvOf(deps.ledger.store, report),
      'utf8',
    );
    if (format === 'csv')
      await recordAdminAction(deps.ledger, req, {
        type: 'AdminDataExported',
        data: {
          kind: 'report',
          format,
          month,
          complete: true,
          sha256: createHash('sha256').update(body).digest('hex'),
          bytes: body.length,
        },
      });
    if (format === 'json') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
    } else {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="ledger-report_${month}.csv"`);
    }
    res.send(body);
  });

  route('adminPayoutReport', requireUser, requireUnlockedAdmin, async (req, res) => {
    const { month } = payoutReportQuerySchema.parse(req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await payoutReport(deps.ledger.store, month, deps.config.FINANCE_TIME_ZONE));
  });
});
