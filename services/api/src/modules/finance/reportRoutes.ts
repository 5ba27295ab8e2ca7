import { monthlyReportQuerySchema } from '@astra/contracts';
import { monthlyReport, monthlyReportCsv } from '@astra/projections';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';

/** `GET /api/admin/reports/monthly?month=YYYY-MM[&format=csv]`: the month's roll-forward, by replay. */
export function reportRoutes(deps: AppDeps) {
  const router = Router();
  router.get('/admin/reports/monthly', requireUser, requireUnlockedAdmin, async (req, res) => {
    const { month, format } = monthlyReportQuerySchema.parse(req.query);
    const report = await monthlyReport(deps.ledger.store, month);
    res.setHeader('Cache-Control', 'no-store');
    if (format === 'json') {
      res.json(report);
      return;
    }
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="ledger-report_${month}.csv"`);
    res.send(monthlyReportCsv(report));
  });
  return router;
}
