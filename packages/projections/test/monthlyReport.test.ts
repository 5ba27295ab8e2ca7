import type { EventStore } from '@astra/event-store';
import { expect, it } from 'vitest';
import { monthlyReport } from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { freshStorage, randomHistory } from './support.ts';

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
  }, 60_000);
});
