/** Who may ask for finance, and by replay the month report, balances as of an instant, `ledger:verify` and `ledger:report`. */
import { randomUUID } from 'node:crypto';
import type {
  LedgerExportRow,
  MonthlyReport,
  TotalBalanceAt,
  UserBalanceAt,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { postgresForTests } from '@astra/event-store/testing';
import { ACCOUNT_MONEY_VERSION } from '@astra/ledger';
import {
  financeCalendar,
  MONTHLY_REPORT_COLUMNS,
  userBalanceAt,
  verifyLedger,
} from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/projections/test/csv.ts';
import {
  cli,
  type FinanceHistory,
  type FinanceServer,
  HISTORY,
  jsonLines,
  rawGet,
  signed,
  startFinanceServer,
} from './financeHistory.ts';
import { deliver, packCheckout, refundedCharge } from './stripeWebhooks.ts';
import type { Client, TestServer } from './support.ts';

/** The same instant one millisecond earlier or later. */
const shifted = (instant: string, ms: number) => new Date(Date.parse(instant) + ms).toISOString();

for (const storage of ['postgres', 'pglite'] as const) {
  const available = storage === 'pglite' || (await postgresForTests());
  describe.runIf(available)(`audit and finance by replay (${storage})`, () => {
    let finance: FinanceServer;
    let server: TestServer;
    let admin: Client;
    let member: FinanceServer['member'];
    beforeAll(async () => {
      finance = await startFinanceServer(storage);
      ({ server, admin, member } = finance);
    });
    afterAll(() => finance?.close());

    it('answers anonymous 401, users and locked admins 403, unlocked admins 200 on every finance route', async () => {
      const anonymous = server.client();
      const { client: user, id } = await member('matrix');
      const locked = server.client();
      await locked.signIn('admin@example.com');
      const routes = [
        '/api/admin/exports/ledger?format=csv',
        '/api/admin/exports/ledger?format=jsonl&from=2026-01-01T00:00:00Z',
        '/api/admin/exports/ledger/checksum?format=csv',
        '/api/admin/reports/monthly?month=2026-01',
        '/api/admin/reports/monthly?month=2026-01&format=csv',
        `/api/admin/users/${id}/balance`,
        `/api/admin/users/${id}/balance?at=2026-01-01T00:00:00Z`,
        '/api/admin/balance',
        '/api/admin/balance?at=2026-01-01T00:00:00%2B02:00',
      ];
      for (const path of routes) {
        // The CSV report is not the JSON its route table entry describes: checked by hand below.
        const csv = path.includes('reports') && path.includes('csv');
        const as = (client: Client) => (csv ? client.unchecked() : client.checked());
        expect((await as(anonymous).get(path)).status, path).toBe(401);
        expect((await as(user).get(path)).body.error, path).toBe('admin_required');
        expect((await as(locked).get(path)).body.error, path).toBe('admin_locked');
        const ok = await as(admin).get(path);
        expect(ok.status, `${path}: ${JSON.stringify(ok.body)}`).toBe(200);
      }
      for (const client of [anonymous, user, locked, admin]) client.checked();
    });

    it('refuses bad queries with 400 naming the fields, and unknown users with 404', async () => {
      const refused = async (path: string, fields: string[]) => {
        const answer = await admin.get(path);
        expect(answer.status, path).toBe(400);
        expect(answer.body.error).toBe('invalid_request');
        expect(answer.body.fields.map((f: { field: string }) => f.field).sort(), path).toEqual(
          fields,
        );
      };
      for (const base of [
        '/api/admin/exports/ledger',
        '/api/admin/exports/ledger/checksum',
        '/api/admin/ledger',
      ]) {
        if (base !== '/api/admin/ledger') await refused(`${base}?format=xml`, ['format']);
        await refused(`${base}?from=yesterday`, ['from']);
        await refused(`${base}?to=2026-01-01`, ['to']);
        if (base !== '/api/admin/ledger')
          await refused(`${base}?format=csv&format=jsonl`, ['format']);
        await refused(`${base}?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`, ['to']);
        // The same instant written two ways is an empty range, refused too.
        await refused(`${base}?from=2026-01-01T02:00:00%2B02:00&to=2026-01-01T00:00:00Z`, ['to']);
      }
      await refused('/api/admin/reports/monthly', ['month']);
      await refused('/api/admin/reports/monthly?month=2026-13', ['month']);
      await refused('/api/admin/reports/monthly?month=2026-1', ['month']);
      await refused('/api/admin/reports/monthly?month=2026-01&format=pdf', ['format']);
      await refused('/api/admin/balance?at=now', ['at']);
      const { id } = await member('bad-query');
      await refused(`/api/admin/users/${id}/balance?at=2026-01-01`, ['at']);
      for (const path of [
        `/api/admin/users/${randomUUID()}/balance`,
        '/api/admin/users/not-a-user/balance',
      ]) {
        expect(await admin.get(path), path).toMatchObject({
          status: 404,
          body: { error: 'not_found', message: 'No such user' },
        });
      }
    });

    describe(HISTORY, () => {
      let ada: { client: Client; id: string };
      let end: string;
      let rows: LedgerExportRow[];
      let rowsOf: FinanceHistory['rowsOf'];
      beforeAll(async () => {
        ({ ada, end, rows, rowsOf } = await finance.history());
      });

      it('reports the month: the roll-forward meets the balances, the money meets the lots', async () => {
        const month = rowsOf(ada.id)[0]!.occurredAt.slice(0, 7);
        const answer = await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`);
        expect(answer.status).toBe(200);
        const report = answer.body;
        const [year, m] = month.split('-').map(Number) as [number, number];
        expect(report).toMatchObject({
          month,
          timeZone: 'UTC',
          from: new Date(Date.UTC(year, m - 1, 1)).toISOString(),
          to: new Date(Date.UTC(year, m, 1)).toISOString(),
          flags: [],
        });
        // Every credit event up to now, as the export shows them (a sign-in may add some).
        const all = jsonLines(
          (
            await rawGet(
              server.url,
              `/api/admin/exports/ledger?format=jsonl&to=${report.to}`,
              admin.cookie,
            )
          ).body,
        );
        const inMonth = all.filter((r) => r.occurredAt >= report.from);
        const before = all.filter((r) => r.occurredAt < report.from);
        const lastBalances = (entries: LedgerExportRow[]) => {
          const last = new Map<string, number>();
          for (const r of entries) last.set(r.userId, r.balanceAfter);
          return [...last.values()].reduce((a, b) => a + b, 0);
        };
        const sum = (type: string) =>
          inMonth.filter((r) => r.type === type).reduce((total, r) => total + r.credits, 0);
        const opening = lastBalances(before);
        expect(report.credits).toEqual({
          opening,
          purchased: sum('CreditsGranted'),
          subscriptionGrants: 0,
          free: sum('FreeCreditsGranted'),
          adminAdjustments: sum('CreditsAdjusted'),
          spentReadings: -sum('CreditsSpent'),
          spentVoice: 0,
          spendsRefunded: sum('SpendRefunded'),
          forfeitedRollover: 0,
          forfeitedDeletion: 0,
          reversed: -sum('PurchaseReversed'),
          closing: lastBalances(all),
          balancesAtClose: lastBalances(all),
          difference: 0,
        });
        expect(report.eventsReplayed).toBe(all.length);
        // This history's money, in both currencies (a fresh database: nothing before it).
        expect(report.money).toEqual([
          {
            currency: 'eur',
            deferredOpening: 0,
            cashIn: 1500,
            refunds: 0,
            recognized: 0,
            // The 8 paid credits the admin held back: a line of their own, not revenue from use.
            adminDeductions: 120,
            deferredClosing: 1380,
            cashToDate: 1500,
            recognizedToDate: 0,
            adminDeductionsToDate: 120,
            // No payment of this history recorded a tax (automatic tax off).
            taxPayableOpening: 0,
            taxIn: 0,
            taxOut: 0,
            taxPayableClosing: 0,
            // No payout yet.
            fees: 0,
            paidOut: 0,
            feesToDate: 0,
            paidOutToDate: 0,
            disputes: 0,
            disputesToDate: 0,
            taxByCountry: [],
            revenue: [],
            // Paid this month, all still owed but the deduction.
            deferredByPurchaseMonth: [{ purchased: month, opening: 0, closing: 1380 }],
          },
          {
            currency: 'usd',
            deferredOpening: 0,
            cashIn: 1799,
            refunds: 540,
            // 90 + 90 − 90 (the refunded spend) + 540 (reversed) − 540 (the refund)
            recognized: 90,
            // The admin's deduction of 2 paid credits.
            adminDeductions: 35,
            // The pack's lot: 63 credits worth 1134.
            deferredClosing: 1134,
            cashToDate: 1259,
            recognizedToDate: 90,
            adminDeductionsToDate: 35,
            taxPayableOpening: 0,
            taxIn: 0,
            taxOut: 0,
            taxPayableClosing: 0,
            // No payout yet.
            fees: 0,
            paidOut: 0,
            feesToDate: 0,
            paidOutToDate: 0,
            disputes: 0,
            disputesToDate: 0,
            taxByCountry: [],
            revenue: [
              // Two life path readings (90 each), one given back.
              { line: 'reading:life-path', minor: 90 },
              // The reversed credits' 540 less the 540 refunded.
              { line: 'refunds', minor: 0 },
            ],
            deferredByPurchaseMonth: [{ purchased: month, opening: 0, closing: 1134 }],
          },
        ]);

        // The CSV: the same figures, one line each.
        const csv = await admin
          .unchecked()
          .get(`/api/admin/reports/monthly?month=${month}&format=csv`);
        admin.checked();
        expect(csv.status).toBe(200);
        expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(csv.headers.get('content-disposition')).toBe(
          `attachment; filename="ledger-report_${month}.csv"`,
        );
        const [header, ...lines] = parseCsv(csv.body as string);
        expect(header).toEqual([...MONTHLY_REPORT_COLUMNS]);
        expect(lines.slice(0, 3)).toEqual([
          [month, 'period', 'time_zone', '', 'UTC'],
          [month, 'period', 'from', '', report.from],
          [month, 'period', 'to', '', report.to],
        ]);
        const value = (section: string, line: string, currency = '') =>
          Number(lines.find((l) => l[1] === section && l[2] === line && l[3] === currency)?.[4]);
        expect(value('credits', 'opening')).toBe(report.credits.opening);
        expect(value('credits', 'balances_at_close')).toBe(report.credits.balancesAtClose);
        expect(value('credits', 'spent_readings')).toBe(report.credits.spentReadings);
        expect(value('money', 'recognized', 'usd')).toBe(90);
        expect(value('money', 'admin_deductions', 'usd')).toBe(35);
        expect(value('money', 'admin_deductions', 'eur')).toBe(120);
        expect(value('money', 'admin_deductions_to_date', 'eur')).toBe(120);
        expect(value('money', 'deferred_closing', 'eur')).toBe(1380);
        expect(value('revenue', 'reading:life-path', 'usd')).toBe(90);
        expect(value('deferred_closing_by_purchase_month', month, 'usd')).toBe(1134);
        expect(lines.every((l) => l[0] === month)).toBe(true);
        expect(lines.filter((l) => l[1] === 'flag')).toEqual([]);

        // A month before the log: all zero, nothing flagged.
        const empty = (await admin.get<MonthlyReport>('/api/admin/reports/monthly?month=2001-01'))
          .body;
        expect(empty.credits.closing).toBe(0);
        expect(empty.money).toEqual([]);
        expect(empty.eventsReplayed).toBe(0);
      });

      it('gives the balance as of any instant: the balance after the last event at or before it', async () => {
        const adaRows = rowsOf(ada.id);
        const balanceAt = async (at: string) =>
          (
            await admin.get<UserBalanceAt>(
              `/api/admin/users/${ada.id}/balance?at=${encodeURIComponent(at)}`,
            )
          ).body;
        const expected = (at: string) => {
          const applied = adaRows.filter((r) => r.occurredAt <= at);
          return {
            balance: applied.at(-1)?.balanceAfter ?? 0,
            position: applied.at(-1)?.position ?? null,
            events: applied.length,
          };
        };
        for (const row of adaRows) {
          for (const at of [row.occurredAt, shifted(row.occurredAt, -1)]) {
            expect(await balanceAt(at), at).toMatchObject({ userId: ada.id, at, ...expected(at) });
          }
        }
        expect(await balanceAt('2001-01-01T00:00:00.000Z')).toEqual({
          userId: ada.id,
          at: '2001-01-01T00:00:00.000Z',
          balance: 0,
          lots: { subscription: 0, free: 0, purchased: 0, promotional: 0 },
          deferred: [],
          position: null,
          events: 0,
        });
        // Now (no `at`): the pack's 63 credits, worth 1134.
        const now = (await admin.get<UserBalanceAt>(`/api/admin/users/${ada.id}/balance`)).body;
        expect(now).toMatchObject({
          balance: 63,
          lots: { subscription: 0, free: 0, purchased: 63, promotional: 0 },
          deferred: [{ currency: 'usd', minor: 1134 }],
          events: adaRows.length,
        });
        // An offset names the same instant.
        const last = adaRows.at(-1)!;
        const withOffset = `${shifted(last.occurredAt, 3_600_000).slice(0, 23)}+01:00`;
        expect((await balanceAt(withOffset)).balance).toBe(last.balanceAfter);

        // Every account: the export's last balances up to then.
        const total = async (at: string) =>
          (await admin.get<TotalBalanceAt>(`/api/admin/balance?at=${at}`)).body;
        const granted = adaRows.find((r) => r.type === 'CreditsGranted')!;
        for (const at of [granted.occurredAt, end, shifted(granted.occurredAt, -1)]) {
          const applied = rows.filter((r) => r.occurredAt <= at);
          const last = new Map(applied.map((r) => [r.userId, r.balanceAfter]));
          expect(await total(at), at).toMatchObject({
            at,
            balance: [...last.values()].reduce((a, b) => a + b, 0),
            accounts: last.size,
            position: applied.at(-1)?.position ?? null,
          });
        }
        expect((await total(end)).deferred).toEqual([
          { currency: 'eur', minor: 1380 },
          { currency: 'usd', minor: 1134 },
        ]);
      });

      it('leaves ledger:verify with the money invariant met in each currency', async () => {
        const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
        expect(report.differences).toEqual([]);
        expect(report.money).toEqual([
          {
            currency: 'eur',
            cashToDate: 1500,
            recognizedToDate: 0,
            adminDeductionsToDate: 120,
            deferred: 1380,
            taxPayable: 0,
            feesToDate: 0,
            paidOutToDate: 0,
            disputesToDate: 0,
          },
          {
            currency: 'usd',
            cashToDate: 1259,
            recognizedToDate: 90,
            adminDeductionsToDate: 35,
            deferred: 1134,
            taxPayable: 0,
            feesToDate: 0,
            paidOutToDate: 0,
            disputesToDate: 0,
          },
        ]);
      });

      it.runIf(storage === 'postgres')(
        'prints the money in `npm run ledger:verify` and the report in `npm run ledger:report`',
        async () => {
          const env = { DATABASE_URL: server.databaseUrl!, DATA_DIR: server.dataDir };
          const verified = await cli('ledger:verify', [], env);
          expect(verified.code, verified.stdout.toString()).toBe(0);
          expect(verified.stdout.toString()).toContain(
            "Money in usd (minor units): Stripe's balance 1259 (cash to date 1259 − fees 0 − paid out 0 − disputes 0) = recognized to date 90 + admin deductions to date 35 + deferred now 1134 + tax payable 0 − fees − paid out − disputes",
          );
          const month = rowsOf(ada.id)[0]!.occurredAt.slice(0, 7);
          const csv = await cli('ledger:report', ['--month', month, '--format', 'csv'], env);
          expect(csv.code, csv.stderr).toBe(0);
          const http = await admin
            .unchecked()
            .get(`/api/admin/reports/monthly?month=${month}&format=csv`);
          admin.checked();
          expect(csv.stdout.toString()).toBe(http.body);
          const text = await cli('ledger:report', ['--month', month], env);
          expect(text.code).toBe(0);
          expect(text.stdout.toString()).toMatch(/= deferred at the end\s+1134/);
          expect(text.stdout.toString()).toMatch(/− admin deductions\s+35\n/);
          expect(text.stdout.toString()).toContain('No flags');
          expect((await cli('ledger:report', ['--month', '2026-13'], env)).code).toBe(2);
          // The month of FINANCE_TIME_ZONE, or of --time-zone.
          const berlin = await cli('ledger:report', ['--month', month, '--format', 'json'], {
            ...env,
            FINANCE_TIME_ZONE: 'Europe/Berlin',
          });
          expect(berlin.code, berlin.stderr).toBe(0);
          expect(JSON.parse(berlin.stdout.toString())).toMatchObject({
            timeZone: 'Europe/Berlin',
            ...financeCalendar('Europe/Berlin').monthRange(month),
          });
          const mars = await cli(
            'ledger:report',
            ['--month', month, '--time-zone', 'Mars/Olympus'],
            env,
          );
          expect(mars.code).toBe(2);
          expect(mars.stderr).toContain('--time-zone must be an IANA time zone');
        },
        120_000,
      );

      it('answers a long stream from kept replays exactly as a whole replay does', async () => {
        // 2,500 more events on one account, a millisecond apart: grants (every tenth paid),
        // spends and refunds of spends.
        const { id } = await member('long');
        const base = Date.now() + 1000;
        const metadata = (i: number) => ({
          occurredAt: new Date(base + i).toISOString(),
          actor: { kind: 'system' },
          correlationId: randomUUID(),
          causationId: null,
          schemaVersion: 1,
        });
        const events = Array.from({ length: 2_500 }, (_, i) => {
          const data =
            i % 3 === 0
              ? {
                  type: 'CreditsGranted',
                  data: {
                    grantId: `long-${i}`,
                    kind: i % 30 === 0 ? 'purchase' : 'promotional',
                    amount: 10,
                    reason: 'Long history',
                    tierId: null,
                    reference: null,
                    ...(i % 30 === 0 ? { payment: { amountMinor: 999, currency: 'usd' } } : {}),
                  },
                }
              : i % 3 === 1
                ? {
                    type: 'CreditsSpent',
                    data: {
                      spendId: `spend-${i}`,
                      amount: 7,
                      purpose: 'reading',
                      description: 'Long reading',
                      appId: 5,
                      readingId: null,
                    },
                  }
                : {
                    type: 'SpendRefunded',
                    data: { spendId: `spend-${i - 1}`, amount: 7, reason: 'generation_failed' },
                  };
          return { ...data, metadata: metadata(i) };
        });
        for (let i = 0; i < events.length; i += 500)
          await server.deps.ledger.store.append(`credits-${id}`, events.slice(i, i + 500), {
            expected: 'any',
          });
        const history = jsonLines(
          (await rawGet(server.url, '/api/admin/exports/ledger?format=jsonl', admin.cookie)).body,
        ).filter((r) => r.userId === id);
        expect(history.length).toBe(2_502);
        const ask = async (at: string) =>
          (await admin.get<UserBalanceAt>(`/api/admin/users/${id}/balance?at=${at}`)).body;
        const instants = [2_499, 0, 1_000, 999, 1_001, 2_000, 1_500, 10, 2_499].map((i) =>
          new Date(base + i).toISOString(),
        );
        const first: UserBalanceAt[] = [];
        for (const at of instants) {
          const answer = await ask(at);
          const applied = history.filter((r) => r.occurredAt <= at);
          expect(answer, at).toMatchObject({
            balance: applied.at(-1)!.balanceAfter,
            position: applied.at(-1)!.position,
            events: applied.length,
          });
          first.push(answer);
        }
        // Asked again in another order (other kept replays to start from): the same answers.
        for (const [i, at] of [...instants.entries()].reverse())
          expect(await ask(at)).toEqual(first[i]);
        expect(first.at(-1)!.deferred).toEqual([{ currency: 'usd', minor: expect.any(Number) }]);

        // Another process (a store with nothing in memory) starts from the snapshots kept beside
        // the log: the last one before the instant (here, the end of the stream: nothing to read).
        const stream = `credits-${id}`;
        const { store, snapshots } = {
          store: server.deps.ledger.store,
          snapshots: server.deps.snapshots,
        };
        let read = 0;
        const counting: EventStore = Object.assign(Object.create(store), {
          readStream: (name: string, options?: { from?: bigint }) => {
            const events = store.readStream(name, options);
            return (async function* () {
              for await (const event of events) {
                read++;
                yield event;
              }
            })();
          },
        });
        const last = instants[0]!;
        expect(await userBalanceAt(counting, snapshots, id, last)).toEqual(first[0]);
        expect(read).toBe(0);
        const kept = await snapshots.latest(stream, 'credit-money', ACCOUNT_MONEY_VERSION);
        expect(kept?.revision).toBe(2_501n);

        // A snapshot is what a question starts from: one of another shape's version is ignored.
        await snapshots.save(stream, 'credit-money', ACCOUNT_MONEY_VERSION + 1, {
          ...kept!,
          state: { wrong: true },
        });
        expect(await userBalanceAt(store, snapshots, id, last)).toEqual(first[0]);
      });

      it('reports the tax of payments and refunds: what is payable, and the month’s by country and rate', async () => {
        // Two packs in pounds (a currency of its own: nothing else here has tax), their tax in
        // them, and half of one refunded.
        const { id } = await member('taxed');
        const pack = (amountTotal: number, tax: number, country: string, percentage: number) => ({
          ...packCheckout(id, 2, { amountTotal, currency: 'gbp' }),
          total_details: {
            amount_tax: tax,
            breakdown: { taxes: [{ amount: tax, rate: { percentage } }] },
          },
          customer_details: { address: { country } },
        });
        const dutch = pack(1210, 210, 'NL', 21);
        for (const session of [dutch, pack(1190, 190, 'DE', 19)])
          await deliver(server, signed('checkout.session.completed', session));
        const refund = {
          ...refundedCharge(id, dutch.payment_intent, 1210, 605),
          currency: 'gbp',
        };
        expect((await deliver(server, signed('charge.refunded', refund))).body.outcome).toBe(
          'reversed',
        );
        const rows = jsonLines(
          (await rawGet(server.url, '/api/admin/exports/ledger?format=jsonl', admin.cookie)).body,
        ).filter((r) => r.userId === id);
        const month = rows.at(-1)!.occurredAt.slice(0, 7);
        const report = (await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`))
          .body;
        expect(report.flags).toEqual([]);
        // The lots hold the packs net of tax, 1000 each; the refund's 605 is 105 of tax and the
        // 500 that the 50 reversed credits were worth, so nothing is recognized.
        expect(report.money.find((m) => m.currency === 'gbp')).toMatchObject({
          cashIn: 2400,
          refunds: 605,
          recognized: 0,
          deferredClosing: 1500,
          cashToDate: 1795,
          taxPayableOpening: 0,
          taxIn: 400,
          taxOut: 105,
          taxPayableClosing: 295,
          taxByCountry: [
            { country: 'DE', ratePercent: 19, minor: 190 },
            { country: 'NL', ratePercent: 21, minor: 105 },
          ],
        });
        const csv = await admin
          .unchecked()
          .get(`/api/admin/reports/monthly?month=${month}&format=csv`);
        admin.checked();
        const lines = parseCsv(csv.body as string).filter((l) => l[3] === 'gbp');
        expect(lines.filter((l) => l[1] === 'tax_by_country')).toEqual([
          [month, 'tax_by_country', 'DE:19', 'gbp', '190'],
          [month, 'tax_by_country', 'NL:21', 'gbp', '105'],
        ]);
        expect(lines.find((l) => l[2] === 'tax_payable_closing')?.[4]).toBe('295');
        const verified = await verifyLedger(server.deps.ledger.store, server.deps.db);
        expect(verified.differences).toEqual([]);
        expect(verified.money.find((m) => m.currency === 'gbp')).toEqual({
          currency: 'gbp',
          cashToDate: 1795,
          recognizedToDate: 0,
          adminDeductionsToDate: 0,
          deferred: 1500,
          taxPayable: 295,
          feesToDate: 0,
          paidOutToDate: 0,
          disputesToDate: 0,
        });
      });
    });
  });
}
