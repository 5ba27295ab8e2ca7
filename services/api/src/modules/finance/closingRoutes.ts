import {
  type ClosedMonth,
  closedMonthSchema,
  closedMonthsSchema,
  closeMonthParamsSchema,
  type MonthClosed,
} from '@astra/contracts';
import { nextMonth } from '@astra/ledger';
import { closedReportOf, moneyLogHead, monthlyReport } from '@astra/projections';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';
import { EmailBook } from './ledgerExplorer.ts';

const descriptors = {
  adminCloseMonth: {
    method: 'post',
    path: '/api/admin/finance/months/{month}/close',
    tag: 'Admin',
    summary:
      'Closes a month of the finance calendar: records its report’s log position and CSV checksum, and its report stays as it is',
    auth: 'unlocked_admin',
    responses: ok(closedMonthSchema),
    errors: [
      { status: 400, code: 'invalid_request', when: 'The month is not YYYY-MM' },
      {
        status: 409,
        code: 'month_not_ended',
        when: 'The month has not ended in the finance time zone',
      },
      {
        status: 409,
        code: 'month_closed',
        when: 'The month is closed already, or a later one is',
      },
      {
        status: 409,
        code: 'month_not_next',
        when: 'The month before it is open: months close in order',
      },
    ],
    command: true,
    readsLog: true,
  },
  adminClosedMonths: {
    method: 'get',
    path: '/api/admin/finance/months',
    tag: 'Admin',
    summary: 'The closed months, oldest first, and the month to close next',
    auth: 'unlocked_admin',
    responses: ok(closedMonthsSchema),
    errors: [],
  },
} satisfies RouteDescriptors;

const closedMonthOf = ({
  closeId: _id,
  reportJson: _json,
  reportCsv: _csv,
  ...closed
}: MonthClosed): ClosedMonth => closed;

/**
 * Closing a month of the finance calendar (unlocked admins), decided on the `finance-months`
 * stream: the month's report is made through the log's last money event, and the close keeps
 * that position, the report and its checksum (docs/finance.md, "Closing a month").
 */
export const closingRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ledger } = deps;
  const admin = [requireUser, requireUnlockedAdmin];

  route('adminCloseMonth', ...admin, async (req, res) => {
    const { month } = closeMonthParamsSchema.parse(req.params);
    const through = await moneyLogHead(ledger.store);
    const report = await monthlyReport(ledger.store, month, deps.config.FINANCE_TIME_ZONE, {
      upTo: through,
    });
    // The close is the admin's action on record: the activity list reads it back.
    const handled = await ledger.handle(
      'financeMonths',
      null,
      {
        type: 'CloseMonth',
        month,
        timeZone: report.timeZone,
        endsAt: report.to,
        through: String(through),
        ...closedReportOf(report),
        adminId: req.user!.id,
        closeId: commandIdOf(req, 'close-month'),
        now: new Date().toISOString(),
      },
      req.context,
    );
    res.json(closedMonthOf(handled.state.closed.find((closed) => closed.month === month)!));
  });

  route('adminClosedMonths', ...admin, async (_req, res) => {
    const { closed } = (await ledger.load('financeMonths', null)).state;
    const emails = new EmailBook(ledger.store);
    res.json({
      items: await Promise.all(
        closed.map(async (each) => ({
          ...closedMonthOf(each),
          adminEmail: await emails.of(each.adminId),
        })),
      ),
      next: closed.length ? nextMonth(closed.at(-1)!.month) : null,
    });
  });
});
