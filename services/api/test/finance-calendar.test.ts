/**
 * The operator's calendar: with `FINANCE_TIME_ZONE=Europe/Berlin` the month report, its CSV and the
 * dashboard's money are months of Berlin and say so; a zone that does not exist stops the start.
 */
import { randomUUID } from 'node:crypto';
import type { AdminStatsMoney, MonthlyReport } from '@astra/contracts';
import type { CreditCommand } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/projections/test/csv.ts';
import {
  creditsAt,
  packPurchase,
  readingSpend,
} from '../../../packages/projections/test/support.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { type Client, startTestServer, type TestServer } from './support.ts';

describe('FINANCE_TIME_ZONE', () => {
  it('refuses to start with a zone that does not exist, naming the setting', () => {
    expect(() => loadConfig({ FINANCE_TIME_ZONE: 'Europe/Atlantis' })).toThrow(ConfigError);
    expect(() => loadConfig({ FINANCE_TIME_ZONE: 'Europe/Atlantis' })).toThrow(
      /FINANCE_TIME_ZONE: must be an IANA time zone/,
    );
    expect(loadConfig({}).FINANCE_TIME_ZONE).toBe('UTC');
    expect(loadConfig({ FINANCE_TIME_ZONE: 'Europe/Berlin' }).FINANCE_TIME_ZONE).toBe(
      'Europe/Berlin',
    );
  });

  describe('in Europe/Berlin', () => {
    let server: TestServer;
    let admin: Client;
    beforeAll(async () => {
      server = await startTestServer({ FINANCE_TIME_ZONE: 'Europe/Berlin' });
      admin = server.client();
      await admin.signInAsAdmin();
      // One account's purchase and two spends either side of midnight in Berlin (23:00 UTC).
      const userId = randomUUID();
      const run = creditsAt(server.deps.ledger.store);
      const at = (instant: string, command: CreditCommand) => run(instant, command, userId);
      const spend = readingSpend;
      await at('2026-01-10T12:00:00.000Z', { type: 'OpenAccount', userId });
      await at('2026-01-10T12:00:00.000Z', packPurchase(100, 1800));
      await at('2026-01-31T22:30:00.000Z', spend(10));
      // 00:30 on 1 February in Berlin.
      await at('2026-01-31T23:30:00.000Z', spend(20));
    });
    afterAll(() => server?.close());

    it('reports the month of Berlin, and says so in the JSON and the CSV', async () => {
      const report = async (month: string) =>
        (await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`)).body;
      const january = await report('2026-01');
      expect(january).toMatchObject({
        month: '2026-01',
        timeZone: 'Europe/Berlin',
        from: '2025-12-31T23:00:00.000Z',
        to: '2026-01-31T23:00:00.000Z',
        credits: { purchased: 100, spentReadings: 10 },
        money: [{ currency: 'usd', cashIn: 1800, recognized: 180 }],
        flags: [],
      });
      expect(await report('2026-02')).toMatchObject({
        from: '2026-01-31T23:00:00.000Z',
        credits: { opening: 90, spentReadings: 20 },
        money: [{ currency: 'usd', cashIn: 0, recognized: 360 }],
      });

      const csv = await admin
        .unchecked()
        .get('/api/admin/reports/monthly?month=2026-01&format=csv');
      admin.checked();
      const [header, ...lines] = parseCsv(csv.body as string);
      expect(header).toEqual(['month', 'section', 'line', 'currency', 'value']);
      expect(lines.slice(0, 3)).toEqual([
        ['2026-01', 'period', 'time_zone', '', 'Europe/Berlin'],
        ['2026-01', 'period', 'from', '', '2025-12-31T23:00:00.000Z'],
        ['2026-01', 'period', 'to', '', '2026-01-31T23:00:00.000Z'],
      ]);
      expect(lines).toContainEqual(['2026-01', 'credits', 'spent_readings', '', '10']);
    });

    it("gives the dashboard this month of Berlin, the report's month", async () => {
      const money = (await admin.get<AdminStatsMoney>('/api/admin/stats/money')).body;
      const month = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'Europe/Berlin',
        year: 'numeric',
        month: '2-digit',
      }).format(new Date());
      const report = (await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`))
        .body;
      expect(money).toMatchObject({
        month,
        timeZone: 'Europe/Berlin',
        from: report.from,
        to: report.to,
      });
    });

    it('names the zone beside the ledger export, whose times stay UTC instants', async () => {
      const exported = await admin
        .unchecked()
        .get('/api/admin/exports/ledger?format=csv&to=2026-02-01T00:00:00Z');
      admin.checked();
      expect(exported.headers.get('x-finance-time-zone')).toBe('Europe/Berlin');
      expect(exported.body as string).toContain(',2026-01-31T23:30:00.000Z,');
    });
  });
});
