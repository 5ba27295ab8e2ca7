import type { FinanceMonthEvent } from '@astra/contracts';
import { describe, it } from 'vitest';
import { type FinanceMonthCommand, financeMonthsDecider, nextMonth } from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

const spec = deciderSpecification(financeMonthsDecider);

/** Closing `month` (in UTC) at `now`, through position 100. */
const closing = (month: string, now = '2026-11-29T12:00:00.000Z'): FinanceMonthCommand => ({
  type: 'CloseMonth',
  month,
  timeZone: 'UTC',
  endsAt: `${nextMonth(month)}-01T00:00:00.000Z`,
  through: '100',
  sha256: 'ab'.repeat(32),
  adminId: 'admin-1',
  closeId: `close-${month}`,
  reportJson: `{"month":"${month}"}`,
  reportCsv: `month,section,line,currency,value\n${month},period,time_zone,,UTC\n`,
  now,
});
const closed = (command: FinanceMonthCommand): FinanceMonthEvent => ({
  type: 'MonthClosed',
  data: {
    month: command.month,
    timeZone: command.timeZone,
    through: command.through,
    sha256: command.sha256,
    adminId: command.adminId,
    closedAt: command.now,
    closeId: command.closeId,
    reportJson: command.reportJson,
    reportCsv: command.reportCsv,
  },
});

describe('closing a month', () => {
  it('closes a month once it has ended, the first one being any month', () => {
    spec([])
      .when(closing('2026-03'))
      .then([closed(closing('2026-03'))]);
    spec([])
      .when(closing('2026-11', '2026-12-01T00:00:00.000Z'))
      .then([closed(closing('2026-11', '2026-12-01T00:00:00.000Z'))]);
  });

  it('refuses a month that has not ended', () => {
    spec([])
      .when(closing('2026-11', '2026-11-30T23:59:59.999Z'))
      .thenThrows(
        'month_not_ended',
        '2026-11 has not ended in UTC: it ends at 2026-12-01T00:00:00.000Z',
      );
  });

  it('closes months in order: only the month after the last one closed', () => {
    const given = [closed(closing('2026-03'))];
    spec(given)
      .when(closing('2026-04'))
      .then([closed(closing('2026-04'))]);
    spec(given)
      .when(closing('2026-05'))
      .thenThrows('month_not_next', 'Months close in order: close 2026-04 first');
    spec([closed(closing('2026-12', '2027-01-05T00:00:00.000Z'))])
      .when(closing('2027-01', '2027-02-01T00:00:00.000Z'))
      .then([closed(closing('2027-01', '2027-02-01T00:00:00.000Z'))]);
  });

  it('refuses a month closed already, or one before the last closed; the same close again is a no-op', () => {
    const given = [closed(closing('2026-03'))];
    spec(given)
      .when({ ...closing('2026-03'), closeId: 'another' })
      .thenThrows(
        'month_closed',
        '2026-03 is closed already (by admin-1 at 2026-11-29T12:00:00.000Z)',
      );
    spec(given)
      .when(closing('2026-02'))
      .thenThrows(
        'month_closed',
        '2026-02 is closed already: the books are closed through 2026-03',
      );
    spec(given).when(closing('2026-03')).thenNothingHappens();
  });
});
