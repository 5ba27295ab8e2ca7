/** The ledger export by replay, over HTTP and from `npm run ledger:export`: rows, CSV, its SHA-256 trailer and checksum, ranges, the same bytes after a rebuild. */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type LedgerExportChecksum,
  type LedgerExportRow,
  ledgerExportRowSchema,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { postgresForTests } from '@astra/event-store/testing';
import {
  LEDGER_EXPORT_COLUMNS,
  ledgerExportChecksum,
  monthlyReport,
  rebuildReadModels,
  totalBalanceAt,
} from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/projections/test/csv.ts';
import {
  cli,
  type FinanceHistory,
  type FinanceServer,
  FORGED,
  HISTORY,
  jsonLines,
  rawGet,
  startFinanceServer,
} from './financeHistory.ts';
import type { Client, TestServer } from './support.ts';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const moneyList = (amounts: LedgerExportRow['lotValue']) =>
  amounts.map((v) => `${v.currency}:${v.minor}`).join(';');
const lotValues = (entry: LedgerExportRow) => moneyList(entry.lotValue);

for (const storage of ['postgres', 'pglite'] as const) {
  const available = storage === 'pglite' || (await postgresForTests());
  describe.runIf(available)(`audit and finance by replay (${storage})`, () => {
    let finance: FinanceServer;
    let server: TestServer;
    let admin: Client;
    beforeAll(async () => {
      finance = await startFinanceServer(storage);
      ({ server, admin } = finance);
    });
    afterAll(() => finance?.close());

    describe(HISTORY, () => {
      let ada: { client: Client; id: string };
      let bob: { client: Client; id: string };
      let end: string;
      let rows: LedgerExportRow[];
      let rowsOf: FinanceHistory['rowsOf'];
      beforeAll(async () => {
        ({ ada, bob, end, rows, rowsOf } = await finance.history());
      });

      it('exports one row per credit event in log order, each as the ledger shows it', async () => {
        const positions = rows.map((r) => BigInt(r.position));
        expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        for (const { client, id } of [ada, bob]) {
          const ledger = (await client.get('/api/me/ledger')).body.items.toReversed();
          expect(
            rowsOf(id).map((r) => [r.position, r.type, r.credits, r.balanceAfter, r.occurredAt]),
          ).toEqual(
            ledger.map((e: Record<string, unknown>) => [
              e.position,
              e.type,
              e.amount,
              e.balanceAfter,
              e.occurredAt,
            ]),
          );
        }
        const adaRows = rowsOf(ada.id);
        expect(
          adaRows.map((r) => [
            r.type,
            r.credits,
            r.balanceAfter,
            r.money,
            lotValues(r),
            moneyList(r.adminDeducted),
          ]),
        ).toEqual([
          ['CreditAccountOpened', 0, 0, null, '', ''],
          ['FreeCreditsGranted', 10, 10, null, '', ''],
          ['CreditsGranted', 100, 110, { currency: 'usd', minor: 1799 }, '', ''],
          // 10 free credits (worth nothing) and 2 of the pack: ⌊1799 × 2 ÷ 100⌋ = 35, an admin
          // deduction (not revenue from use).
          ['CreditsAdjusted', -12, 98, null, 'usd:35', 'usd:35'],
          // 5 of the 98 left, worth 1764: ⌊1764 × 5 ÷ 98⌋ = 90.
          ['CreditsSpent', -5, 93, null, 'usd:90', ''],
          // 5 of 93 worth 1674: ⌊1674 × 5 ÷ 93⌋ = 90, and given back.
          ['CreditsSpent', -5, 88, null, 'usd:90', ''],
          ['SpendRefunded', 5, 93, null, 'usd:-90', ''],
          ['PaymentRefunded', 0, 93, { currency: 'usd', minor: -540 }, '', ''],
          // ⌊100 × 540 ÷ 1799⌋ = 30 credits of 93 worth 1674: ⌊1674 × 30 ÷ 93⌋ = 540.
          ['PurchaseReversed', -30, 63, null, 'usd:540', ''],
        ]);
        const email = (userId: string) => `${rowsOf(userId)[0]!.email}`;
        expect(email(ada.id)).toMatch(/^ada-.*@example\.com$/);
        expect(adaRows.every((r) => r.email === email(ada.id))).toBe(true);
        expect(adaRows.map((r) => r.actor)).toEqual([
          'system',
          'system',
          'stripe',
          'admin:admin@example.com',
          `user:${ada.id}`,
          `user:${ada.id}`,
          `user:${ada.id}`,
          'stripe',
          'stripe',
        ]);
        const [, , granted, adjusted, spent, failed, refundedSpend, paymentRefunded] = adaRows;
        // The cause is typed fields: each Stripe id, the ledger's ids and a reason on their own.
        expect(granted!.checkoutSessionId).toMatch(/^cs_test_/);
        expect(granted!.grantId).toBe(`checkout:${granted!.checkoutSessionId}`);
        expect(granted!.paymentIntentId).toMatch(/^pi_/);
        expect(granted!.reason).toBeNull();
        expect(adjusted!.reason).toBe('=HYPERLINK("https://example.com","correction")');
        expect(adjusted!.adjustmentId).toEqual(expect.any(String));
        expect(adjusted!.description).toBe('=HYPERLINK("https://example.com","correction")');
        expect(spent).toMatchObject({
          readingId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          purpose: 'reading',
          spendId: expect.any(String),
          reason: null,
        });
        // The reading that failed: its spend, and the refund naming the same spend.
        expect(refundedSpend).toMatchObject({
          spendId: failed!.spendId,
          reason: 'generation_failed',
        });
        expect(paymentRefunded).toMatchObject({
          paymentIntentId: granted!.paymentIntentId,
          chargeId: expect.stringMatching(/^ch_/),
          invoiceId: null,
        });
        expect(spent!.correlationId).not.toBe('');
        const bobRows = rowsOf(bob.id);
        expect(
          bobRows.map((r) => [
            r.type,
            r.credits,
            r.balanceAfter,
            r.money,
            lotValues(r),
            moneyList(r.adminDeducted),
          ]),
        ).toEqual([
          ['CreditAccountOpened', 0, 0, null, '', ''],
          ['FreeCreditsGranted', 10, 10, null, '', ''],
          ['CreditsGranted', 100, 110, { currency: 'eur', minor: 1500 }, '', ''],
          ['CreditsAdjusted', 7, 117, null, '', ''],
          // 5 of the free credits: worth nothing.
          ['CreditsSpent', -5, 112, null, '', ''],
          ['CreditsAdjusted', -20, 92, null, 'eur:120', 'eur:120'],
        ]);
        // A reason that reads like ids is a reason: the Stripe id fields stay empty.
        const forged = bobRows.at(-1)!;
        expect(forged).toMatchObject({
          reason: FORGED,
          paymentIntentId: null,
          chargeId: null,
          checkoutSessionId: null,
          invoiceId: null,
          otherIds: null,
        });
      });

      it('writes the same rows as CSV (csv-stringify), parsed back field by field', async () => {
        const answer = await rawGet(
          server.url,
          `/api/admin/exports/ledger?format=csv&to=${end}`,
          admin.cookie,
        );
        expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
        const [header, ...records] = parseCsv(answer.body.toString('utf8'));
        expect(header).toEqual([...LEDGER_EXPORT_COLUMNS]);
        // The columns are the JSON line's fields, in its order, in snake case.
        expect(header).toEqual(
          Object.keys(ledgerExportRowSchema.shape).flatMap((key) =>
            key === 'money'
              ? ['money_minor', 'currency']
              : key === 'lotValue'
                ? ['lot_values']
                : [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)],
          ),
        );
        expect(records).toHaveLength(rows.length);
        const formula = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
        records.forEach((record, i) => {
          const row = rows[i]!;
          const text = (value: string | null) =>
            value === null ? '' : formula.test(value) ? `'${value}` : value;
          expect(record).toEqual([
            row.position,
            row.occurredAt,
            row.userId,
            row.email ?? '',
            row.type,
            String(row.credits),
            String(row.balanceAfter),
            row.money ? String(row.money.minor) : '',
            row.money?.currency ?? '',
            lotValues(row),
            moneyList(row.adminDeducted),
            text(row.actor),
            text(row.checkoutSessionId),
            text(row.paymentIntentId),
            text(row.chargeId),
            text(row.invoiceId),
            text(row.subscriptionId),
            text(row.customerId),
            text(row.stripeEventId),
            text(row.readingId),
            text(row.purpose),
            row.appId === null ? '' : String(row.appId),
            text(row.grantId),
            text(row.spendId),
            text(row.adjustmentId),
            text(row.period),
            text(row.trigger),
            text(row.reason),
            row.otherIds ? JSON.stringify(row.otherIds) : '',
            text(row.correlationId),
            text(row.description),
          ]);
        });
        // The forged reason is one cell of `reason`; the id columns of its row are empty.
        const column = (name: string) => header!.indexOf(name);
        const forged = records.find((r) => r[column('reason')] === FORGED)!;
        expect(forged[column('type')]).toBe('CreditsAdjusted');
        for (const id of ['payment_intent_id', 'charge_id', 'checkout_session_id', 'other_ids'])
          expect(forged[column(id)], id).toBe('');
        expect(forged[column('admin_deducted')]).toBe('eur:120');
        // The formula is defused; the reason with a comma and quotes comes back whole.
        const descriptions = records.map((r) => r[column('description')]);
        expect(descriptions).toContain(`'=HYPERLINK("https://example.com","correction")`);
        expect(descriptions).toContain('Goodwill, "sorry" for the wait');
        expect(answer.body.toString()).toContain('"Goodwill, ""sorry"" for the wait"');
      });

      it('sends the SHA-256 of the body as a trailer, the same as the checksum route', async () => {
        for (const format of ['csv', 'jsonl'] as const) {
          const query = `format=${format}&to=${end}`;
          const answer = await rawGet(
            server.url,
            `/api/admin/exports/ledger?${query}`,
            admin.cookie,
          );
          expect(answer.headers.trailer).toBe('X-Content-SHA256');
          expect(answer.headers['transfer-encoding']).toBe('chunked');
          expect(answer.headers['content-disposition']).toBe(
            `attachment; filename="ledger_beginning_${end.replaceAll('-', '').replaceAll(':', '')}.${format}"`,
          );
          expect(answer.trailers['x-content-sha256']).toBe(sha256(answer.body));
          const checksum = await admin.get<LedgerExportChecksum>(
            `/api/admin/exports/ledger/checksum?${query}`,
          );
          expect(checksum.body).toEqual({
            format,
            from: null,
            to: end,
            sha256: sha256(answer.body),
            rows: rows.length,
            bytes: answer.body.length,
          });
        }
      });

      it('exports a range with every earlier event folded, whatever offset names its ends', async () => {
        const adaRows = rowsOf(ada.id);
        const granted = adaRows.find((r) => r.type === 'CreditsGranted')!;
        const reversed = adaRows.find((r) => r.type === 'PurchaseReversed')!;
        const from = granted.occurredAt;
        const to = reversed.occurredAt;
        const path = `/api/admin/exports/ledger?format=jsonl&from=${from}&to=${to}`;
        const inRange = jsonLines((await rawGet(server.url, path, admin.cookie)).body);
        expect(inRange).toEqual(rows.filter((r) => r.occurredAt >= from && r.occurredAt < to));
        expect(inRange.map((r) => r.type)).toContain('SpendRefunded');
        expect(inRange.map((r) => r.type)).not.toContain('PurchaseReversed');
        // The same instants written with an offset: the same bytes.
        const plus2 = (instant: string) =>
          encodeURIComponent(
            `${new Date(Date.parse(instant) + 2 * 3_600_000).toISOString().slice(0, 23)}+02:00`,
          );
        const offset = await rawGet(
          server.url,
          `/api/admin/exports/ledger?format=jsonl&from=${plus2(from)}&to=${plus2(to)}`,
          admin.cookie,
        );
        expect(offset.body.equals((await rawGet(server.url, path, admin.cookie)).body)).toBe(true);
        // An empty range is a header alone (CSV) or nothing (JSON lines).
        const before = '2000-01-01T00:00:00.000Z';
        const empty = await rawGet(
          server.url,
          `/api/admin/exports/ledger?format=csv&to=${before}`,
          admin.cookie,
        );
        expect(empty.body.toString()).toBe(`${LEDGER_EXPORT_COLUMNS.join(',')}\n`);
        expect(
          (await admin.get(`/api/admin/exports/ledger/checksum?format=jsonl&to=${before}`)).body,
        ).toMatchObject({ rows: 0, bytes: 0, sha256: sha256('') });
      });

      it('gives the same bytes after the read models are rebuilt', async () => {
        const bodies = async () =>
          Promise.all(
            (['csv', 'jsonl'] as const).map(
              async (format) =>
                (
                  await rawGet(
                    server.url,
                    `/api/admin/exports/ledger?format=${format}&to=${end}`,
                    admin.cookie,
                  )
                ).body,
            ),
          );
        const before = await bodies();
        const rebuilt = await rebuildReadModels(server.deps.ledger.store, server.deps.db);
        expect(rebuilt.events).toBeGreaterThan(rows.length);
        const after = await bodies();
        expect(after[0]!.equals(before[0]!)).toBe(true);
        expect(after[1]!.equals(before[1]!)).toBe(true);
      });

      it('finds a refunded spend again when the first read of the refunds missed it', async () => {
        // A store whose reads by type find nothing: every refund comes "after" that first read,
        // and its spend is found again by replaying its stream.
        const store = server.deps.ledger.store;
        const blind: EventStore = {
          kind: store.kind,
          append: (stream, events, options) => store.append(stream, events, options),
          readStream: (stream, options) => store.readStream(stream, options),
          readAll: (options) =>
            options?.filter?.types ? (async function* () {})() : store.readAll(options),
          subscribeAll: (options) => store.subscribeAll(options),
          close: () => store.close(),
        };
        const range = { from: null, to: end };
        expect(await ledgerExportChecksum(blind, { format: 'jsonl', ...range })).toEqual(
          await ledgerExportChecksum(store, { format: 'jsonl', ...range }),
        );
        const month = end.slice(0, 7);
        expect(await monthlyReport(blind, month)).toEqual(await monthlyReport(store, month));
        expect(await totalBalanceAt(blind, end)).toEqual(await totalBalanceAt(store, end));
      });

      it.runIf(storage === 'postgres')(
        'gives the same bytes and checksum from `npm run ledger:export`',
        async () => {
          const env = { DATABASE_URL: server.databaseUrl!, DATA_DIR: server.dataDir };
          const dir = await mkdtemp(join(tmpdir(), 'astra-export-'));
          try {
            const from = rowsOf(ada.id)[0]!.occurredAt;
            const query = `from=${from}&to=${end}`;
            const http = await rawGet(
              server.url,
              `/api/admin/exports/ledger?format=csv&${query}`,
              admin.cookie,
            );
            const out = join(dir, 'ledger.csv');
            const toFile = await cli(
              'ledger:export',
              ['--format', 'csv', '--from', from, '--to', end, '--out', out],
              env,
            );
            expect(toFile.code, toFile.stderr).toBe(0);
            const file = await readFile(out);
            expect(file.equals(http.body)).toBe(true);
            const digest = sha256(file);
            const rowCount = rows.filter((r) => r.occurredAt >= from).length;
            expect(toFile.stderr).toMatch(
              new RegExp(`^${digest}  ${rowCount} rows  ${file.length} bytes  in \\d+\\.\\d s\\n$`),
            );
            expect(await readFile(`${out}.sha256`, 'utf8')).toBe(`${digest}  ledger.csv\n`);
            expect(http.trailers['x-content-sha256']).toBe(digest);

            const toStdout = await cli(
              'ledger:export',
              ['--format', 'jsonl', '--from', from, '--to', end],
              env,
            );
            expect(toStdout.code, toStdout.stderr).toBe(0);
            const jsonl = await rawGet(
              server.url,
              `/api/admin/exports/ledger?format=jsonl&${query}`,
              admin.cookie,
            );
            expect(toStdout.stdout.equals(jsonl.body)).toBe(true);
            expect(toStdout.stderr.split('  ')[0]).toBe(jsonl.trailers['x-content-sha256']);

            // The journal: the same bytes too, its dates in the finance time zone (UTC here).
            const journalOut = await cli(
              'ledger:export',
              ['--format', 'journal', '--from', from, '--to', end],
              env,
            );
            expect(journalOut.code, journalOut.stderr).toBe(0);
            const journal = await rawGet(
              server.url,
              `/api/admin/exports/ledger?format=journal&${query}`,
              admin.cookie,
            );
            expect(journal.headers['content-type']).toBe('text/plain; charset=utf-8');
            expect(journal.headers['content-disposition']).toMatch(/\.journal"$/);
            expect(journalOut.stdout.equals(journal.body)).toBe(true);
            expect(journal.body.toString()).toContain('dates are days in UTC');
            expect(journal.body.toString()).toContain('assets:stripe:clearing');

            const bad = await cli('ledger:export', ['--format', 'xml'], env);
            expect(bad.code).toBe(2);
            expect(bad.stderr).toMatch(/--format/);
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
        120_000,
      );
    });
  });
}
