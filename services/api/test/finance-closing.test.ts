/**
 * Closing a month: who may, which months, and what a close holds still: the closed report's bytes,
 * and late events booked in the first open month as dated adjustments (report and dashboard alike).
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  type AdminActivityPage,
  type ClosedMonths,
  type MonthlyReport,
  streamDecoders,
} from '@astra/contracts';
import { postgresForTests } from '@astra/event-store/testing';
import { type CreditCommand, streams } from '@astra/ledger';
import { financeCalendar } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/projections/test/csv.ts';
import {
  creditsAt,
  packPurchase,
  readingSpend,
} from '../../../packages/projections/test/support.ts';
import { cli } from './financeHistory.ts';
import { type Client, startTestServer, type TestServer, until } from './support.ts';

const ZONE = 'Europe/Berlin';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The CSV as a close's checksum covers it: without its `closed_*` rows. */
const withoutClosedRows = (csv: string) =>
  csv
    .split(/(?<=\n)/)
    .filter((line) => !/^[^,]*,period,closed_/.test(line))
    .join('');

const postgres = Boolean(await postgresForTests());

describe('closing a month', () => {
  let server: TestServer;
  let admin: Client;
  let adminId: string;
  const userId = randomUUID();
  /** A member whose every event is in January, until a late one. */
  const januaryOnly = randomUUID();
  /** Appends a credit command to a member's account as if it happened at `instant`. */
  let at: (instant: string, command: CreditCommand, user?: string) => Promise<bigint>;
  const spend = readingSpend;

  /** The close's answer: a `ClosedMonth`, or a refusal. */
  const close = (month: string, headers: Record<string, string> = {}) =>
    admin.post(`/api/admin/finance/months/${month}/close`, undefined, headers);
  const report = async (month: string) =>
    (await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`)).body;
  const csv = async (month: string) => {
    const answer = await admin
      .unchecked()
      .get<string>(`/api/admin/reports/monthly?month=${month}&format=csv`);
    admin.checked();
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** The dashboard's money of a month, as the report's money lines show it. */
  const dashboardMoney = async (month: string) => {
    await server.deps.monthMoney.catchUp();
    return server.deps.monthMoney.month(month);
  };
  const reportMoney = (report: MonthlyReport) =>
    report.money.map(({ currency, recognized, cashIn, refunds }) => ({
      currency,
      recognized,
      cashIn,
      refunds,
    }));

  beforeAll(async () => {
    server = await startTestServer({ FINANCE_TIME_ZONE: ZONE });
    admin = server.client();
    adminId = (await admin.signInAsAdmin()).id;
    const run = creditsAt(server.deps.ledger.store);
    at = (instant, command, user = userId) => run(instant, command, user);
    await at('2026-01-10T12:00:00.000Z', { type: 'OpenAccount', userId });
    await at('2026-01-10T12:00:00.000Z', packPurchase(100, 1800));
    await at('2026-01-20T12:00:00.000Z', spend(10));
    await at('2026-01-15T12:00:00.000Z', { type: 'OpenAccount', userId: januaryOnly }, januaryOnly);
    await at(
      '2026-01-15T12:00:00.000Z',
      {
        type: 'GrantCredits',
        grantId: randomUUID(),
        kind: 'purchase',
        amount: 10,
        reason: 'Credit pack',
        tierId: 2,
        reference: { checkoutSessionId: `cs_${randomUUID()}` },
        payment: { amountMinor: 180, currency: 'usd' },
      },
      januaryOnly,
    );
    await at('2026-02-10T12:00:00.000Z', spend(5));
  });
  afterAll(() => server?.close());

  it('refuses a month that is not YYYY-MM (400) or has not ended in the finance time zone (409)', async () => {
    const bad = await close('2026-13');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_request', fields: [{ field: 'month' }] });
    const thisMonth = financeCalendar(ZONE).monthOf(new Date().toISOString());
    const early = await close(thisMonth);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('month_not_ended');
    expect((await admin.get<ClosedMonths>('/api/admin/finance/months')).body).toEqual({
      items: [],
      next: null,
    });
  });

  it('lets only an unlocked admin close a month: anonymous 401, a user and a locked admin 403', async () => {
    const anonymous = server.client();
    const user = server.client();
    await user.signIn(`closing-${randomUUID()}@example.com`);
    const locked = server.client();
    await locked.signIn('admin@example.com');
    for (const [method, path] of [
      ['POST', '/api/admin/finance/months/2026-01/close'],
      ['GET', '/api/admin/finance/months'],
    ] as const) {
      expect((await anonymous.request(method, path)).status).toBe(401);
      expect((await user.request(method, path)).body.error).toBe('admin_required');
      expect((await locked.request(method, path)).body.error).toBe('admin_locked');
    }
    // Nobody of them closed anything.
    expect((await admin.get<ClosedMonths>('/api/admin/finance/months')).body.items).toEqual([]);
  });

  it('closes an ended month on the report as it stands; the closed report stays byte for byte, late events go to the first open month', async () => {
    const open = await csv('2026-01');
    const closed = await close('2026-01');
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toEqual({
      month: '2026-01',
      timeZone: ZONE,
      through: expect.stringMatching(/^\d+$/),
      sha256: sha256(open),
      adminId,
      closedAt: expect.any(String),
    });
    const list = (await admin.get<ClosedMonths>('/api/admin/finance/months')).body;
    expect(list).toEqual({
      items: [{ ...closed.body, adminEmail: 'admin@example.com' }],
      next: '2026-02',
    });

    // The report says it is closed; its CSV, the `closed_*` rows left out, is the one closed.
    const january = await report('2026-01');
    expect(january.closed).toEqual(closed.body);
    const januaryCsv = await csv('2026-01');
    expect(withoutClosedRows(januaryCsv)).toBe(open);
    const rows = parseCsv(januaryCsv);
    expect(rows.slice(1, 8)).toEqual([
      ['2026-01', 'period', 'time_zone', '', ZONE],
      ['2026-01', 'period', 'from', '', '2025-12-31T23:00:00.000Z'],
      ['2026-01', 'period', 'to', '', '2026-01-31T23:00:00.000Z'],
      ['2026-01', 'period', 'closed_at', '', closed.body.closedAt],
      ['2026-01', 'period', 'closed_by', '', adminId],
      ['2026-01', 'period', 'closed_through', '', closed.body.through],
      ['2026-01', 'period', 'closed_sha256', '', closed.body.sha256],
    ]);

    // It is the report the close kept on its event, whatever the code that makes reports becomes.
    const kept = [];
    for await (const recorded of server.deps.ledger.store.readStream(streams.financeMonths(null)))
      kept.push(streamDecoders.financeMonths(recorded).data);
    expect(kept[0]!.reportCsv).toBe(open);
    expect({ ...JSON.parse(kept[0]!.reportJson!), closed: closed.body }).toEqual(january);

    // A spend recorded now that says it happened in January (a skewed clock, a late item).
    const late = await at('2026-01-25T12:00:00.000Z', spend(7), januaryOnly);
    expect(late).toBeGreaterThan(BigInt(closed.body.through));
    expect(await csv('2026-01')).toBe(januaryCsv);
    expect(await report('2026-01')).toEqual(january);
    expect(january.credits.spentReadings).toBe(10);

    // February, the first open month, counts it and lists it as a dated adjustment.
    const february = await report('2026-02');
    expect(february).toMatchObject({
      credits: { opening: 100, spentReadings: 12, closing: 88, balancesAtClose: 88, difference: 0 },
      money: [{ currency: 'usd', recognized: 216 }],
      adjustments: [
        { position: String(late), occurredAt: '2026-01-25T12:00:00.000Z', type: 'CreditsSpent' },
      ],
      flags: [],
      closed: null,
    });
    expect(parseCsv(await csv('2026-02'))).toContainEqual([
      '2026-02',
      'adjustment',
      String(late),
      '',
      '2026-01-25T12:00:00.000Z',
    ]);
    // The dashboard's money books it in the same month as the report.
    expect(await dashboardMoney('2026-02')).toEqual(reportMoney(february));
    expect(await dashboardMoney('2026-01')).toEqual(reportMoney(january));
  });

  it('closes months in order, once; the same Idempotency-Key again is the same close', async () => {
    const skipping = await close('2026-03');
    expect(skipping.status).toBe(409);
    expect(skipping.body).toMatchObject({ error: 'month_not_next' });
    expect(skipping.body.message).toContain('close 2026-02 first');

    const key = randomUUID();
    const february = await close('2026-02', { 'idempotency-key': key });
    expect(february.status).toBe(200);
    expect(await close('2026-02', { 'idempotency-key': key })).toMatchObject({
      status: 200,
      body: february.body,
    });
    for (const month of ['2026-02', '2026-01', '2025-12']) {
      const again = await close(month);
      expect(again.status, month).toBe(409);
      expect(again.body.error, month).toBe('month_closed');
    }
    const { items } = (await admin.get<ClosedMonths>('/api/admin/finance/months')).body;
    expect(items.map((each) => each.month)).toEqual(['2026-01', '2026-02']);

    // February's adjustment is in its closed report; a later one for January goes to March.
    const closedFebruary = await report('2026-02');
    expect(closedFebruary.adjustments).toHaveLength(1);
    const late = await at('2026-01-28T12:00:00.000Z', spend(3));
    expect(await report('2026-02')).toEqual(closedFebruary);
    const march = await report('2026-03');
    expect(march).toMatchObject({
      credits: { opening: 88, spentReadings: 3, closing: 85, difference: 0 },
      adjustments: [{ position: String(late), occurredAt: '2026-01-28T12:00:00.000Z' }],
      flags: [],
    });
    expect(await dashboardMoney('2026-03')).toEqual(reportMoney(march));
    expect(await dashboardMoney('2026-02')).toEqual(reportMoney(closedFebruary));
  });

  it.runIf(postgres)(
    '`npm run ledger:report` gives a closed month as closed, in its own time zone, and the adjustments',
    async () => {
      const env = { DATABASE_URL: server.databaseUrl!, DATA_DIR: server.dataDir };
      const january = await cli(
        'ledger:report',
        ['--month', '2026-01', '--format', 'csv', '--time-zone', 'UTC'],
        env,
      );
      expect(january.code, january.stderr).toBe(0);
      expect(january.stdout.toString()).toBe(await csv('2026-01'));
      const march = await cli('ledger:report', ['--month', '2026-03'], env);
      expect(march.stdout.toString()).toMatch(
        /\nDated adjustments \(recorded after their month was closed\)\n {2}2026-01-28T12:00:00\.000Z {2}position \d+ {2}CreditsSpent\n/,
      );
    },
  );

  it('puts each close on the admin activity list', async () => {
    const items = await until('the closes on the activity list', async () => {
      const page = await admin.get<AdminActivityPage>('/api/admin/activity?type=MonthClosed');
      return page.body.items.length === 2 ? page.body.items : null;
    });
    expect(items.map((item) => [item.action, item.adminId, item.adminEmail])).toEqual([
      ['MonthClosed', adminId, 'admin@example.com'],
      ['MonthClosed', adminId, 'admin@example.com'],
    ]);
    expect(items[1]!.detail).toMatch(
      /^Closed the month 2026-01 \(Europe\/Berlin\) through position \d+: report SHA-256 [0-9a-f]{64}$/,
    );
  });
});
