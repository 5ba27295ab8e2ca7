import { randomUUID } from 'node:crypto';
import type { EventStore } from '@astra/event-store';
import type { CreditCommand } from '@astra/ledger';
import { expect, it } from 'vitest';
import { flagsOf, MonthMoney, monthlyReport } from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { creditsAt, freshStorage, packPurchase, randomHistory, readingSpend } from './support.ts';

/** The store read whole: `readAll` without the `elideFrom` hint. */
const readingWhole = (store: EventStore): EventStore => ({
  kind: store.kind,
  append: (stream, events, options) => store.append(stream, events, options),
  readStream: (stream, options) => store.readStream(stream, options),
  readAll: ({ elideFrom: _, ...options } = {}) => store.readAll(options),
  subscribeAll: (options) => store.subscribeAll(options),
  close: () => store.close(),
});

onEachDatabase('The monthly report', (kind) => {
  const open = freshStorage(kind);

  it('reads the events after its month without their data, and reports exactly what a whole read does', async () => {
    const storage = await open();
    const { store } = storage;
    // About 40 days of commands from 2026-01-01: January, and part of February after it.
    await randomHistory(store, { commands: 1_500, users: 12, seed: 7 });
    let elided = 0;
    for await (const event of store.readAll({ elideFrom: '2026-02-01T00:00:00.000Z' })) {
      if (event.elided) elided++;
    }
    expect(elided).toBeGreaterThan(50);

    const reports = [];
    for (const month of ['2025-12', '2026-01', '2026-02']) {
      const report = await monthlyReport(store, month);
      expect(report, month).toEqual(await monthlyReport(readingWhole(store), month));
      // Among others: revenue by line adds up to recognized, the ages to deferred.
      expect(report.flags, month).toEqual([]);
      reports.push(report);
    }
    // The waterfall: what each purchase month still held at January's end, February opens with.
    const [, january, february] = reports;
    const held = (side: 'opening' | 'closing', report: typeof january) =>
      report!.money.map((m) => ({
        currency: m.currency,
        aged: m.deferredByPurchaseMonth
          .map((aged) => ({ purchased: aged.purchased, minor: aged[side] }))
          .filter((aged) => aged.minor !== 0),
      }));
    expect(held('opening', february)).toEqual(held('closing', january));
    expect(held('closing', january).flatMap((m) => m.aged).length).toBeGreaterThan(0);
    expect(january!.money.flatMap((m) => m.revenue).length).toBeGreaterThan(2);
    // A month of another zone ends at an instant that is not a UTC midnight.
    const berlin = await monthlyReport(store, '2026-01', 'Europe/Berlin');
    expect(berlin).toEqual(await monthlyReport(readingWhole(store), '2026-01', 'Europe/Berlin'));
    expect(berlin.flags).toEqual([]);
  }, 60_000);

  it('counts an event in the month of the finance time zone, as the dashboard’s money does', async () => {
    const { store } = await open();
    const userId = randomUUID();
    const run = creditsAt(store);
    const at = (instant: string, command: CreditCommand) => run(instant, command, userId);
    const pack = packPurchase;
    const spend = readingSpend;
    await at('2026-01-10T12:00:00.000Z', { type: 'OpenAccount', userId });
    // 100 credits for $18.00: 18 cents a credit.
    await at('2026-01-10T12:00:00.000Z', pack(100, 1800));
    // 23:30 on the 31st in UTC, but already February in Berlin (00:30 on the 1st).
    await at('2026-01-31T22:30:00.000Z', spend(10));
    await at('2026-01-31T23:30:00.000Z', spend(20));
    // February's last evening in UTC is March in Berlin.
    await at('2026-02-28T23:15:00.000Z', pack(40, 900));

    const berlin = new MonthMoney(store, 'Europe/Berlin');
    const utc = new MonthMoney(store);
    await berlin.catchUp();
    await utc.catchUp();
    const figures = async (month: string, timeZone: string) => {
      const report = await monthlyReport(store, month, timeZone);
      expect(report.flags).toEqual([]);
      const money = report.money.map(({ currency, recognized, cashIn, refunds }) => ({
        currency,
        recognized,
        cashIn,
        refunds,
      }));
      expect(money).toEqual((timeZone === 'UTC' ? utc : berlin).month(month));
      return { ...report.credits, ...money[0]!, from: report.from, to: report.to };
    };
    expect(await figures('2026-01', 'Europe/Berlin')).toMatchObject({
      from: '2025-12-31T23:00:00.000Z',
      to: '2026-01-31T23:00:00.000Z',
      purchased: 100,
      spentReadings: 10,
      cashIn: 1800,
      recognized: 180,
    });
    expect(await figures('2026-02', 'Europe/Berlin')).toMatchObject({
      spentReadings: 20,
      purchased: 0,
      cashIn: 0,
      recognized: 360,
    });
    expect(await figures('2026-03', 'Europe/Berlin')).toMatchObject({ purchased: 40, cashIn: 900 });
    expect(await figures('2026-01', 'UTC')).toMatchObject({ spentReadings: 30, recognized: 540 });
    expect(await figures('2026-02', 'UTC')).toMatchObject({ purchased: 40, cashIn: 900 });
  });
});

it('flags a currency whose cash is not recognized + admin deductions + deferred + tax payable', () => {
  const credits = {
    opening: 0,
    purchased: 100,
    subscriptionGrants: 0,
    free: 0,
    adminAdjustments: 0,
    spentReadings: 0,
    spentVoice: 0,
    spendsRefunded: 0,
    forfeitedRollover: 0,
    forfeitedDeletion: 0,
    reversed: 0,
    closing: 100,
    balancesAtClose: 100,
    difference: 0,
  };
  // A payment of 1210 with 210 of tax: the lot holds 1000, 210 is owed; Stripe took 30 of fees,
  // paid 900 out and a dispute withdrew 100: its balance holds 180.
  const money = {
    currency: 'eur',
    deferredOpening: 0,
    cashIn: 1210,
    refunds: 0,
    recognized: 0,
    adminDeductions: 0,
    deferredClosing: 1000,
    cashToDate: 1210,
    recognizedToDate: 0,
    adminDeductionsToDate: 0,
    taxPayableOpening: 0,
    taxIn: 210,
    taxOut: 0,
    taxPayableClosing: 210,
    fees: 30,
    paidOut: 900,
    feesToDate: 30,
    paidOutToDate: 900,
    disputes: 100,
    disputesToDate: 100,
    taxByCountry: [{ country: 'NL', ratePercent: 21, minor: 210 }],
    revenue: [],
    deferredByPurchaseMonth: [{ purchased: '2026-01', opening: 0, closing: 1000 }],
  };
  expect(flagsOf(credits, [money])).toEqual([]);
  // The tax booked as if it were the lot's: cash no longer meets, nor does the roll.
  expect(
    flagsOf(credits, [
      {
        ...money,
        deferredClosing: 1210,
        deferredByPurchaseMonth: [{ purchased: '2026-01', opening: 0, closing: 1210 }],
      },
    ]),
  ).toEqual([
    "eur: Stripe's balance 180 (cash to date 1210 − fees 30 − paid out 900 − disputes 100) ≠ recognized to date 0 + admin deductions to date 0 + deferred 1210 + tax payable 210 − fees − paid out − disputes (off by -210)",
    "eur: deferred opening 0 + cash in 1210 − refunds 0 − recognized 0 − admin deductions 0 − tax (210 in, 0 out) = 1000, but the lots hold 1210 at the month's end",
  ]);
});
