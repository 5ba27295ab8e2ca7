import { createHash } from 'node:crypto';
import {
  type CreditRollForward,
  type DatedAdjustment,
  type MoneyAmount,
  type MoneyRollForward,
  type MonthClosed,
  type MonthlyReport,
  OTHER_REVENUE_LINES,
  type RevenueLine,
  streamDecoders,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import {
  type AccountMoney,
  bookBalance,
  clearingAccountedOf,
  clearingOf,
  closeRollForward,
  openRollForward,
  rollForward,
  streamId,
  streams,
} from '@astra/ledger';
import { financeCalendar } from './calendar.ts';
import { closedMonthsOf, openMonthAt } from './closedMonths.ts';
import { CreditBooks, MONEY_STREAMS, occurredAtOf, READ_BATCH } from './creditLog.ts';
import { csvOf, rangeTest } from './ledgerExport.ts';

/**
 * The month-end report, by replaying the log (never the read models): the credit roll-forward
 * (opening + the month's movements = closing, checked against every account's balance at the
 * month's end) and the money per currency (cash in, refunds, recognized, admin deductions,
 * deferred).
 *
 * Where an event falls: each account's events are taken in their stream's order, and an event
 * belongs to the period its `occurredAt` falls in (months of the finance calendar's time zone,
 * `calendar.ts`; half open: the first instant of the month is in it, the first of the next is
 * not). An account's events never go back to an earlier period: once one of its events is in the
 * month (or after it), the later ones are too, even if a clock put them a moment earlier. So each
 * account is cut into before / in / after the month where its own stream crosses each boundary,
 * as a balance as of an instant is.
 *
 * Closed months (`closedMonths.ts`): the report of a closed month is the one made through its
 * close's log position, in its close's time zone, so it stays as it was. An event recorded after
 * a close whose time falls in a closed month is booked in the first month open then, as a dated
 * adjustment: counted there, and listed in that month's `adjustments`.
 */

interface MoneyTotals {
  /** The month's recognized revenue by line of the books. */
  revenue: Map<RevenueLine, number>;
  /** Deferred revenue at the month's start and end by the month its lots were paid for. */
  aging: Map<string, { opening: number; closing: number }>;
  deferredOpening: number;
  cashIn: number;
  refunds: number;
  recognized: number;
  adminDeductions: number;
  deferredClosing: number;
  cashToDate: number;
  recognizedToDate: number;
  adminDeductionsToDate: number;
  taxPayableOpening: number;
  taxIn: number;
  taxOut: number;
  taxPayableClosing: number;
  fees: number;
  paidOut: number;
  feesToDate: number;
  paidOutToDate: number;
  disputes: number;
  disputesToDate: number;
  /** The month's tax by country and rate (`taxKey`). */
  taxes: Map<string, TaxByCountry>;
}

type TaxByCountry = MoneyRollForward['taxByCountry'][number];
const taxKey = ({ country, ratePercent }: Omit<TaxByCountry, 'minor'>) =>
  `${country} ${ratePercent}`;

const zeroMoney = (): MoneyTotals => ({
  revenue: new Map(),
  aging: new Map(),
  taxes: new Map(),
  deferredOpening: 0,
  cashIn: 0,
  refunds: 0,
  recognized: 0,
  adminDeductions: 0,
  deferredClosing: 0,
  cashToDate: 0,
  recognizedToDate: 0,
  adminDeductionsToDate: 0,
  taxPayableOpening: 0,
  taxIn: 0,
  taxOut: 0,
  taxPayableClosing: 0,
  fees: 0,
  paidOut: 0,
  feesToDate: 0,
  paidOutToDate: 0,
  disputes: 0,
  disputesToDate: 0,
});

/** Revenue lines in the report's order: readings (by kind), voice, breakage, refunds. */
const revenueLineOrder = (line: RevenueLine) =>
  (OTHER_REVENUE_LINES as readonly string[]).indexOf(line) + 1;

/** What Stripe's balance events move, and the line that adds it up since the log began. */
const BALANCE_LINES = [
  ['fees', 'feesToDate'],
  ['paidOut', 'paidOutToDate'],
  ['disputes', 'disputesToDate'],
] as const;

const BEFORE = 0;
const IN = 1;
const AFTER = 2;

/**
 * The roll-forward of one month of the finance calendar, by replaying the whole log (`upTo`: only
 * the log up to that position, as a close makes it; a closed month's is its close's).
 */
export async function monthlyReport(
  store: EventStore,
  month: string,
  financeTimeZone = 'UTC',
  { upTo = null }: { upTo?: bigint | null } = {},
): Promise<MonthlyReport> {
  const closedMonths = await closedMonthsOf(store);
  const closed = closedMonths.find((each) => each.month === month) ?? null;
  // A closed month's report is the one its close kept.
  if (closed?.reportJson) return { ...JSON.parse(closed.reportJson), closed: closedOf(closed) };
  const timeZone = closed?.timeZone ?? financeTimeZone;
  const bound = closed ? BigInt(closed.through) : upTo;
  const openAt = openMonthAt(closedMonths);
  const adjustments: DatedAdjustment[] = [];
  const calendar = financeCalendar(timeZone);
  const { from, to } = calendar.monthRange(month);
  const before = rangeTest({ from: null, to: from });
  const within = rangeTest({ from, to });
  // Each account's period so far (absent: before the month).
  const period = new Map<string, number>();
  const money = new Map<string, MoneyTotals>();
  const moneyOf = (currency: string) => {
    let totals = money.get(currency);
    if (!totals) {
      totals = zeroMoney();
      money.set(currency, totals);
    }
    return totals;
  };
  const addDeferred = (account: AccountMoney, key: 'deferredOpening' | 'deferredClosing') => {
    if (account.values.size === 0) return;
    const side = key === 'deferredOpening' ? 'opening' : 'closing';
    for (const { currency, valueMinor, paidAt } of account.values.values()) {
      const totals = moneyOf(currency);
      totals[key] += valueMinor;
      const purchased = paidAt === null ? 'unknown' : calendar.monthOf(paidAt);
      let aged = totals.aging.get(purchased);
      if (!aged) {
        aged = { opening: 0, closing: 0 };
        totals.aging.set(purchased, aged);
      }
      aged[side] += valueMinor;
    }
  };
  const addEach = (
    amounts: readonly MoneyAmount[],
    key: 'recognized' | 'recognizedToDate' | 'adminDeductions' | 'adminDeductionsToDate',
  ) => {
    for (const { currency, minor } of amounts) moneyOf(currency)[key] += minor;
  };

  let opening = 0;
  // The month's movements, rolled forward from 0 (the opening is known only at the end).
  let moved = openRollForward(0);
  // Accounts whose opening was taken when their first event of the month came.
  const opened = new Set<string>();
  let replayed = 0;
  let through = 0n;

  const books = await CreditBooks.forLog(store);
  // Events after the month only end their account's month: they come without their data.
  for await (const recorded of store.readAll({
    batch: READ_BATCH,
    elideFrom: to,
    filter: MONEY_STREAMS,
  })) {
    if (bound !== null && recorded.position > bound) break;
    if (recorded.stream === streams.stripeBalance(null)) {
      // Stripe's balance is one stream: its events fall where their own time does.
      const at = recorded.elided ? null : occurredAtOf(recorded);
      if (at === null || !(before(at) || within(at))) continue;
      const effect = bookBalance(streamDecoders.stripeBalance(recorded));
      const inMonth = within(at);
      for (const [line, toDate] of BALANCE_LINES)
        for (const { currency, minor } of effect[line]) {
          moneyOf(currency)[toDate] += minor;
          if (inMonth) moneyOf(currency)[line] += minor;
        }
      continue;
    }
    const userId = streamId(recorded.stream, 'credits');
    if (userId === null) continue;
    const was = period.get(userId) ?? BEFORE;
    if (was === AFTER) continue;
    const occurredAt = recorded.elided ? null : occurredAtOf(recorded);
    // Recorded after a close with a time in a closed month: booked at the first open month's start.
    const open = openAt(recorded.position);
    const openFrom = open === null ? null : calendar.monthRange(open).from;
    const late =
      occurredAt !== null && openFrom !== null && Date.parse(occurredAt) < Date.parse(openFrom);
    const at = late ? openFrom : occurredAt;
    const now = at === null ? AFTER : Math.max(was, before(at) ? BEFORE : within(at) ? IN : AFTER);
    if (now !== was) {
      period.set(userId, now);
      if (was === BEFORE) {
        // The account at the month's start: its balance and the value it holds.
        opened.add(userId);
        const account = books.accounts.get(userId);
        if (account) {
          opening += account.balance;
          addDeferred(account, 'deferredOpening');
        }
      }
      if (now === AFTER) continue;
    }
    const event = streamDecoders.credits(recorded);
    if (books.missesSpend(event)) await books.restoreSpend(event);
    const { cash, recognized, revenue, adminDeducted, taxPayable } = books.book(userId, event);
    replayed++;
    through = recorded.position;
    if (cash) {
      const totals = moneyOf(cash.currency);
      totals.cashToDate += cash.minor;
      if (now === IN) {
        if (cash.minor > 0) totals.cashIn += cash.minor;
        else totals.refunds -= cash.minor;
      }
    }
    if (recognized.length) {
      addEach(recognized, 'recognizedToDate');
      if (now === IN) {
        addEach(recognized, 'recognized');
        for (const { line, currency, minor } of revenue) {
          const lines = moneyOf(currency).revenue;
          lines.set(line, (lines.get(line) ?? 0) + minor);
        }
      }
    }
    if (adminDeducted.length) {
      addEach(adminDeducted, 'adminDeductionsToDate');
      if (now === IN) addEach(adminDeducted, 'adminDeductions');
    }
    for (const { currency, country, ratePercent, minor } of taxPayable) {
      const totals = moneyOf(currency);
      totals.taxPayableClosing += minor;
      if (now === BEFORE) totals.taxPayableOpening += minor;
      else {
        if (minor > 0) totals.taxIn += minor;
        else totals.taxOut -= minor;
        const key = taxKey({ country, ratePercent });
        const tax = totals.taxes.get(key) ?? { country, ratePercent, minor: 0 };
        tax.minor += minor;
        totals.taxes.set(key, tax);
      }
    }
    if (now === IN) moved = rollForward(moved, event);
    if (now === IN && late)
      adjustments.push({ position: String(recorded.position), occurredAt, type: recorded.type });
  }

  // Accounts that had nothing in the month: their opening is what they held all along.
  let balancesAtClose = 0;
  for (const [userId, account] of books.accounts) {
    if (!opened.has(userId)) {
      opening += account.balance;
      addDeferred(account, 'deferredOpening');
    }
    balancesAtClose += account.balance;
    addDeferred(account, 'deferredClosing');
  }
  const credits = closeRollForward(
    { ...moved, opening, closing: opening + moved.closing },
    balancesAtClose,
  );

  const moneyLines: MoneyRollForward[] = [...money]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, { revenue, aging, taxes, ...totals }]) => ({
      currency,
      ...totals,
      taxByCountry: [...taxes.values()].sort(
        (a, b) =>
          (a.country ?? '~').localeCompare(b.country ?? '~') ||
          (a.ratePercent ?? -1) - (b.ratePercent ?? -1),
      ),
      revenue: [...revenue]
        .sort(([a], [b]) => revenueLineOrder(a) - revenueLineOrder(b) || (a < b ? -1 : 1))
        .map(([line, minor]) => ({ line, minor })),
      deferredByPurchaseMonth: [...aging]
        .filter(([, { opening, closing }]) => opening !== 0 || closing !== 0)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([purchased, values]) => ({ purchased, ...values })),
    }));
  return {
    month,
    timeZone,
    from,
    to,
    credits,
    money: moneyLines,
    flags: flagsOf(credits, moneyLines),
    eventsReplayed: replayed,
    through: String(through),
    adjustments,
    closed: closed && closedOf(closed),
  };
}

/** What a report says of its month's close. */
const closedOf = (closed: MonthClosed): NonNullable<MonthlyReport['closed']> => ({
  month: closed.month,
  timeZone: closed.timeZone,
  through: closed.through,
  sha256: closed.sha256,
  adminId: closed.adminId,
  closedAt: closed.closedAt,
});

/** What a reader of the report must not miss: figures that do not meet. */
export function flagsOf(credits: CreditRollForward, money: readonly MoneyRollForward[]): string[] {
  const flags: string[] = [];
  if (credits.difference !== 0) {
    flags.push(
      `Closing credits ${credits.closing} differ from the accounts' balances at the month's end, ${credits.balancesAtClose} (difference ${credits.difference})`,
    );
  }
  for (const m of money) {
    const totals = {
      cash: m.cashToDate,
      recognized: m.recognizedToDate,
      adminDeducted: m.adminDeductionsToDate,
      deferred: m.deferredClosing,
      taxPayable: m.taxPayableClosing,
      fees: m.feesToDate,
      paidOut: m.paidOutToDate,
      disputes: m.disputesToDate ?? 0,
    };
    const clearing = clearingOf(totals);
    const accounted = clearingAccountedOf(totals);
    if (clearing !== accounted) {
      flags.push(
        `${m.currency}: Stripe's balance ${clearing} (cash to date ${m.cashToDate} − fees ${m.feesToDate} − paid out ${m.paidOutToDate} − disputes ${totals.disputes}) ≠ recognized to date ${m.recognizedToDate} + admin deductions to date ${m.adminDeductionsToDate} + deferred ${m.deferredClosing} + tax payable ${m.taxPayableClosing} − fees − paid out − disputes (off by ${clearing - accounted})`,
      );
    }
    const byLine = m.revenue.reduce((sum, line) => sum + line.minor, 0);
    if (byLine !== m.recognized) {
      flags.push(
        `${m.currency}: revenue by line adds up to ${byLine}, not recognized ${m.recognized}`,
      );
    }
    const aged = m.deferredByPurchaseMonth.reduce((sum, month) => sum + month.closing, 0);
    if (aged !== m.deferredClosing) {
      flags.push(
        `${m.currency}: deferred by purchase month adds up to ${aged}, not deferred closing ${m.deferredClosing}`,
      );
    }
    const rolled =
      m.deferredOpening +
      m.cashIn -
      m.refunds -
      m.recognized -
      m.adminDeductions -
      (m.taxIn - m.taxOut);
    if (rolled !== m.deferredClosing) {
      flags.push(
        `${m.currency}: deferred opening ${m.deferredOpening} + cash in ${m.cashIn} − refunds ${m.refunds} − recognized ${m.recognized} − admin deductions ${m.adminDeductions} − tax (${m.taxIn} in, ${m.taxOut} out) = ${rolled}, but the lots hold ${m.deferredClosing} at the month's end`,
      );
    }
  }
  return flags;
}

/** The report's CSV lines, in the JSON's order. */
export const MONTHLY_REPORT_COLUMNS = ['month', 'section', 'line', 'currency', 'value'] as const;

const CREDIT_LINES: [keyof CreditRollForward, string][] = [
  ['opening', 'opening'],
  ['purchased', 'purchased'],
  ['subscriptionGrants', 'subscription_grants'],
  ['free', 'free'],
  ['adminAdjustments', 'admin_adjustments'],
  ['spentReadings', 'spent_readings'],
  ['spentVoice', 'spent_voice'],
  ['spendsRefunded', 'spends_refunded'],
  ['forfeitedRollover', 'forfeited_rollover'],
  ['forfeitedDeletion', 'forfeited_deletion'],
  ['reversed', 'reversed'],
  ['closing', 'closing'],
  ['balancesAtClose', 'balances_at_close'],
  ['difference', 'difference'],
];

const MONEY_LINES: [
  keyof Omit<MoneyRollForward, 'currency' | 'revenue' | 'deferredByPurchaseMonth' | 'taxByCountry'>,
  string,
][] = [
  ['deferredOpening', 'deferred_opening'],
  ['cashIn', 'cash_in'],
  ['refunds', 'refunds'],
  ['recognized', 'recognized'],
  ['adminDeductions', 'admin_deductions'],
  ['deferredClosing', 'deferred_closing'],
  ['cashToDate', 'cash_to_date'],
  ['recognizedToDate', 'recognized_to_date'],
  ['adminDeductionsToDate', 'admin_deductions_to_date'],
  ['taxPayableOpening', 'tax_payable_opening'],
  ['taxIn', 'tax_in'],
  ['taxOut', 'tax_out'],
  ['taxPayableClosing', 'tax_payable_closing'],
  ['fees', 'fees'],
  ['paidOut', 'paid_out'],
  ['feesToDate', 'fees_to_date'],
  ['paidOutToDate', 'paid_out_to_date'],
  ['disputes', 'disputes'],
  ['disputesToDate', 'disputes_to_date'],
];

/** A `tax_by_country` CSV line: `DE:19` (the country, the rate in percent; `unknown` for none). */
const taxLine = ({ country, ratePercent }: TaxByCountry) =>
  `${country ?? 'unknown'}:${ratePercent ?? 'unknown'}`;

/** The `period` rows a closed month's CSV has after its `to`: the close, with its checksum. */
const closedRows = (month: string, closed: NonNullable<MonthlyReport['closed']>) => [
  [month, 'period', 'closed_at', '', closed.closedAt],
  [month, 'period', 'closed_by', '', closed.adminId],
  [month, 'period', 'closed_through', '', closed.through],
  [month, 'period', 'closed_sha256', '', closed.sha256],
];

/**
 * The report as CSV (csv-stringify): `month,section,line,currency,value`, first the `period`
 * (its `time_zone`, `from` and `to`; for a closed month then `closed_at`, `closed_by` (the
 * admin's id), `closed_through` and `closed_sha256`, the rows its checksum leaves out), then
 * credits (no currency), then money by currency (minor units): the roll-forward, the month's
 * revenue by line of the books (section `revenue`), the month's tax by country and rate (section
 * `tax_by_country`, the line `DE:19`), deferred revenue at the month's start and end by the month
 * its credits were paid for (sections `deferred_opening_by_purchase_month` and
 * `deferred_closing_by_purchase_month`, the purchase month as the line), the month's dated
 * adjustments (section `adjustment`, the event's log position as the line, its time as the
 * value), then one `flag` line per flag (its text as the value).
 */
export function monthlyReportCsv(report: MonthlyReport): string {
  const rows: (string | number)[][] = [[...MONTHLY_REPORT_COLUMNS]];
  rows.push(
    [report.month, 'period', 'time_zone', '', report.timeZone],
    [report.month, 'period', 'from', '', report.from],
    [report.month, 'period', 'to', '', report.to],
  );
  if (report.closed) rows.push(...closedRows(report.month, report.closed));
  for (const [key, line] of CREDIT_LINES)
    rows.push([report.month, 'credits', line, '', report.credits[key]]);
  for (const m of report.money)
    for (const [key, line] of MONEY_LINES)
      rows.push([report.month, 'money', line, m.currency, m[key] ?? 0]);
  for (const m of report.money)
    for (const { line, minor } of m.revenue)
      rows.push([report.month, 'revenue', line, m.currency, minor]);
  for (const m of report.money)
    for (const tax of m.taxByCountry)
      rows.push([report.month, 'tax_by_country', taxLine(tax), m.currency, tax.minor]);
  for (const side of ['opening', 'closing'] as const)
    for (const m of report.money)
      for (const aged of m.deferredByPurchaseMonth)
        rows.push([
          report.month,
          `deferred_${side}_by_purchase_month`,
          aged.purchased,
          m.currency,
          aged[side],
        ]);
  for (const { position, occurredAt } of report.adjustments)
    rows.push([report.month, 'adjustment', position, '', occurredAt]);
  for (const flag of report.flags) rows.push([report.month, 'flag', 'flag', '', flag]);
  return csvOf(rows);
}

/**
 * What a close keeps of the report it closes: its JSON, its CSV and the CSV's SHA-256 (hex). The
 * CSV is without its `closed_*` rows, which it cannot hold (they carry the checksum): the CSV of a
 * closed month, those rows left out, is byte for byte the one that was closed.
 */
export const closedReportOf = (report: MonthlyReport) => {
  const reportCsv = monthlyReportCsv({ ...report, closed: null });
  return {
    reportJson: JSON.stringify({ ...report, closed: null }),
    reportCsv,
    sha256: createHash('sha256').update(reportCsv).digest('hex'),
  };
};

/**
 * The month report as CSV, as `GET /api/admin/reports/monthly?format=csv` sends it: a closed
 * month's is the CSV its close kept, with the `closed_*` rows after its `period` rows.
 */
export async function monthlyReportCsvOf(store: EventStore, report: MonthlyReport) {
  const stored = report.closed
    ? (await closedMonthsOf(store)).find((each) => each.month === report.month)?.reportCsv
    : undefined;
  if (!stored) return monthlyReportCsv(report);
  const lines = stored.split(/(?<=\n)/);
  const afterPeriod = lines.findLastIndex((line) => line.startsWith(`${report.month},period,`)) + 1;
  const closed = csvOf(closedRows(report.month, report.closed!));
  return [...lines.slice(0, afterPeriod), closed, ...lines.slice(afterPeriod)].join('');
}
