import { createHash } from 'node:crypto';
import { monthlyReportQuerySchema } from '@astra/contracts';
import { monthlyReport, monthlyReportCsv } from '@astra/projections';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { recordAdminAction } from '../admin/adminRecords.ts';

/** `GET /api/admin/reports/monthly?month=YYYY-MM[&format=csv]`: the month's roll-forward, by replay. */
export function reportRoutes(deps: AppDeps) {
  const router = Router();
  router.get('/admin/reports/monthly', requireUser, requireUnlockedAdmin, async (req, res) => {
    const { month, format } = monthlyReportQuerySchema.parse(req.query);
    const report = await monthlyReport(deps.ledger.store, month);
    res.setHeader('Cache-Control', 'no-store');
    // The body is made here, so its checksum is known before it is sent, and recorded first. The
    // CSV is the download; the JSON is the Finance page's view of the month, not recorded (every
    // visit of the page would be), and holds no customer's data.
    const body = Buffer.from(
      format === 'json' ? JSON.stringify(report) : monthlyReportCsv(report),
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
  return router;
}
