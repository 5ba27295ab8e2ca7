import { parseArgs } from 'node:util';
import { type MonthlyReport, monthSchema, revenueLineLabel } from '@astra/contracts';
import { monthlyReport, monthlyReportCsvOf } from '@astra/projections';
import { z } from 'zod';
import { financeTimeZoneOf } from './financeTimeZone.ts';
import { openProjectionStorage, runCli } from './storage.ts';

const formatSchema = z.enum(['text', 'csv', 'json']);

/** `DE at 19%`; `unknown country`, `unknown rate` where Stripe named none. */
const taxLabel = ({
  country,
  ratePercent,
}: MonthlyReport['money'][number]['taxByCountry'][number]) =>
  `${country ?? 'unknown country'} at ${ratePercent === null ? 'unknown rate' : `${ratePercent}%`}`;

/** The report as people read it in a terminal: one line a figure. */
function reportText(report: MonthlyReport): string {
  const c = report.credits;
  const line = (label: string, value: number | string) =>
    `  ${label.padEnd(34)}${String(value).padStart(14)}`;
  const lines = [
    `Ledger report ${report.month} of ${report.timeZone} (${report.from} to ${report.to}), by replay through position ${report.through} (${report.eventsReplayed} credit events)`,
    '',
    'Credits',
    line('opening (balances at the start)', c.opening),
    line('+ purchased', c.purchased),
    line('+ subscription grants', c.subscriptionGrants),
    line('+ free and promotional', c.free),
    line('± admin adjustments', c.adminAdjustments),
    line('− spent on readings', c.spentReadings),
    line('− spent on voice', c.spentVoice),
    line('+ spends refunded', c.spendsRefunded),
    line('− forfeited at rollover', c.forfeitedRollover),
    line('− forfeited at deletion', c.forfeitedDeletion),
    line('− reversed (refunded purchases)', c.reversed),
    line('= closing', c.closing),
    line('balances at the end (by replay)', c.balancesAtClose),
    line('difference', c.difference),
  ];
  for (const m of report.money) {
    lines.push(
      '',
      `Money in ${m.currency} (minor units)`,
      line('deferred at the start', m.deferredOpening),
      line('+ cash in', m.cashIn),
      line('− refunds', m.refunds),
      line('− recognized (from use)', m.recognized),
      line('− admin deductions', m.adminDeductions),
      line('− tax (in less out)', m.taxIn - m.taxOut),
      line('= deferred at the end', m.deferredClosing),
      line('cash to date', m.cashToDate),
      line('recognized to date', m.recognizedToDate),
      line('admin deductions to date', m.adminDeductionsToDate),
      '',
      `Tax payable in ${m.currency} (minor units)`,
      line('owed at the start', m.taxPayableOpening),
      line('+ collected (payments)', m.taxIn),
      line('− given back (refunds)', m.taxOut),
      line('= owed at the end', m.taxPayableClosing),
    );
    if (m.taxByCountry.length) lines.push('', `Tax in ${m.currency} by country and rate`);
    for (const tax of m.taxByCountry) lines.push(line(taxLabel(tax), tax.minor));
    if (m.revenue.length) lines.push('', `Recognized in ${m.currency} by line`);
    for (const { line: revenue, minor } of m.revenue)
      lines.push(line(revenueLineLabel(revenue), minor));
    if (m.deferredByPurchaseMonth.length)
      lines.push('', `Deferred in ${m.currency} by purchase month (start → end)`);
    for (const aged of m.deferredByPurchaseMonth)
      lines.push(line(aged.purchased, `${aged.opening} → ${aged.closing}`));
  }
  if (report.closed)
    lines.splice(
      1,
      0,
      `Closed at ${report.closed.closedAt} by ${report.closed.adminId}: its CSV (without the closed_ lines) has SHA-256 ${report.closed.sha256}`,
    );
  if (report.adjustments.length)
    lines.push('', 'Dated adjustments (recorded after their month was closed)');
  for (const { occurredAt, position, type } of report.adjustments)
    lines.push(`  ${occurredAt}  position ${position}  ${type}`);
  lines.push('', report.flags.length ? 'FLAGS' : 'No flags: every figure meets.');
  for (const flag of report.flags) lines.push(`  FLAG ${flag}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `npm run ledger:report -- --month YYYY-MM [--format text|csv|json] [--time-zone ZONE]`: the
 * month's roll-forward by replaying the log (the same figures as `GET /api/admin/reports/monthly`;
 * `csv` is the same bytes as its `format=csv`). The month is one of `--time-zone`, else of
 * `FINANCE_TIME_ZONE`, else of UTC, as the API's. Exits 0, 1 when the report flags something, 2
 * when it cannot run.
 */
await runCli(async () => {
  const { values } = parseArgs({
    options: {
      month: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'time-zone': { type: 'string' },
    },
    strict: true,
  });
  const month = monthSchema.safeParse(values.month);
  if (!month.success)
    throw new Error('Invalid arguments: --month must be a month, YYYY-MM, from 1970-01');
  const format = formatSchema.safeParse(values.format);
  if (!format.success) throw new Error('Invalid arguments: --format must be text, csv or json');
  const timeZone = financeTimeZoneOf(values['time-zone']);
  const storage = await openProjectionStorage();
  try {
    const report = await monthlyReport(storage.store, month.data, timeZone);
    process.stdout.write(
      format.data === 'csv'
        ? await monthlyReportCsvOf(storage.store, report)
        : format.data === 'json'
          ? `${JSON.stringify(report, null, 2)}\n`
          : reportText(report),
    );
    return report.flags.length ? 1 : 0;
  } finally {
    await storage.close();
  }
});
