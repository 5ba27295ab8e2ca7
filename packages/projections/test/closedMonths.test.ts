import type { FinanceMonthEvent, MonthlyReport } from '@astra/contracts';
import { streamDecoders } from '@astra/contracts';
import { CommandHandler } from '@astra/event-store';
import { type FinanceMonths, financeMonthsDecider, streams } from '@astra/ledger';
import { expect, it } from 'vitest';
import {
  closedReportOf,
  MonthMoney,
  moneyLogHead,
  monthlyReport,
  monthlyReportCsv,
} from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { freshStorage, metadataAt, randomHistory } from './support.ts';

const moneyOf = (report: MonthlyReport) =>
  report.money.map(({ currency, recognized, cashIn, refunds }) => ({
    currency,
    recognized,
    cashIn,
    refunds,
  }));
const deferred = (report: MonthlyReport, side: 'deferredOpening' | 'deferredClosing') =>
  report.money.map((m) => [m.currency, m[side]]);

onEachDatabase('A closed month', (kind) => {
  const open = freshStorage(kind);

  it('keeps its report; late events are the next month’s adjustments, in the dashboard’s money too, even read before the close was', async () => {
    const { store } = await open();
    // About 40 days from 2026-01-01: January, and part of February.
    await randomHistory(store, { commands: 800, users: 8, seed: 11 });
    const money = new MonthMoney(store);
    await money.catchUp();

    // January's report as the admin closes it, through the log's last credit event.
    const through = await moneyLogHead(store);
    const asClosed = await monthlyReport(store, '2026-01', 'UTC', { upTo: through });
    // Late events (other customers, dated January and February) come before the close is
    // written, and the dashboard's money reads them first.
    await randomHistory(store, { commands: 400, users: 4, seed: 12 });
    await money.catchUp();
    const months = new CommandHandler<FinanceMonths, FinanceMonthEvent>(
      store,
      financeMonthsDecider,
      { decode: streamDecoders.financeMonths },
    );
    await months.handle(
      streams.financeMonths(null),
      (state) =>
        financeMonthsDecider.decide(
          {
            type: 'CloseMonth',
            month: '2026-01',
            timeZone: 'UTC',
            endsAt: asClosed.to,
            through: String(through),
            ...closedReportOf(asClosed),
            adminId: 'admin-1',
            closeId: 'close-1',
            now: '2026-03-01T00:00:00.000Z',
          },
          state,
        ),
      metadataAt(new Date('2026-03-01T00:00:00.000Z')),
    );
    await money.catchUp();

    const january = await monthlyReport(store, '2026-01');
    expect(january.closed).toMatchObject({ through: String(through), adminId: 'admin-1' });
    expect(monthlyReportCsv({ ...january, closed: null })).toBe(monthlyReportCsv(asClosed));
    const february = await monthlyReport(store, '2026-02');
    expect(february.adjustments.length).toBeGreaterThan(10);
    for (const late of february.adjustments) {
      expect(BigInt(late.position)).toBeGreaterThan(through);
      expect(late.occurredAt < '2026-02-01').toBe(true);
    }
    // The months still chain: February opens where the closed January closed, and meets.
    expect(february.credits.opening).toBe(january.credits.closing);
    expect(deferred(february, 'deferredOpening')).toEqual(deferred(january, 'deferredClosing'));
    expect(february.flags).toEqual([]);
    for (const report of [january, february])
      expect(money.month(report.month), report.month).toEqual(moneyOf(report));
  }, 60_000);
});
