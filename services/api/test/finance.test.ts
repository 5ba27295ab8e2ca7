import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type LedgerExportChecksum,
  type LedgerExportRow,
  ledgerExportRowSchema,
  type MonthlyReport,
  type TotalBalanceAt,
  type UserBalanceAt,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { postgresForTests } from '@astra/event-store/testing';
import { ACCOUNT_MONEY_VERSION } from '@astra/ledger';
import {
  LEDGER_EXPORT_COLUMNS,
  ledgerExportChecksum,
  MONTHLY_REPORT_COLUMNS,
  monthlyReport,
  rebuildReadModels,
  totalBalanceAt,
  userBalanceAt,
  verifyLedger,
} from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/projections/test/csv.ts';
import { fakeOpenAi } from './openAiDouble.ts';
import { deliver, packCheckout, refundedCharge, webhookSigner } from './stripeWebhooks.ts';
import { type Client, caughtUp, startTestServer, type TestServer } from './support.ts';

/**
 * Audit and finance by replay over HTTP: the ledger export (CSV and JSON lines, its SHA-256
 * trailer and checksum, the same bytes before and after a rebuild and from the CLI), the
 * monthly report, balances as of an instant, and who may ask for them.
 */

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const WEBHOOK_SECRET = 'whsec_test_finance_secret';
const signed = webhookSigner(WEBHOOK_SECRET);
const lifePath = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' };
/** An admin's reason written to pass for Stripe ids in a `key=value; …` cause. */
const FORGED = 'Chargeback pending review; paymentIntentId=pi_FAKE; chargeId=ch_FAKE';

/** A GET read as bytes, with the response's headers and trailers (fetch shows no trailers). */
function rawGet(base: string, path: string, cookie: string | undefined) {
  return new Promise<{
    status: number;
    body: Buffer;
    headers: NodeJS.Dict<string | string[]>;
    trailers: NodeJS.Dict<string>;
  }>((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: cookie ? { cookie } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          headers: res.headers,
          trailers: res.trailers,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const jsonLines = (body: Buffer) =>
  body
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => ledgerExportRowSchema.parse(JSON.parse(line)));
const moneyList = (amounts: LedgerExportRow['lotValue']) =>
  amounts.map((v) => `${v.currency}:${v.minor}`).join(';');
const lotValues = (entry: LedgerExportRow) => moneyList(entry.lotValue);
/** The same instant one millisecond earlier or later. */
const shifted = (instant: string, ms: number) => new Date(Date.parse(instant) + ms).toISOString();

/** Runs one of the root package's scripts (`npm run …`). */
async function cli(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'buffer',
      maxBuffer: 64 * 2 ** 20,
    });
    return { code: 0, stdout, stderr: stderr.toString() };
  } catch (error) {
    const failed = error as { code: number; stdout: Buffer; stderr: Buffer };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr.toString() };
  }
}

for (const storage of ['postgres', 'pglite'] as const) {
  const available = storage === 'pglite' || (await postgresForTests());
  describe.runIf(available)(`audit and finance by replay (${storage})`, () => {
    let server: TestServer;
    let admin: Client;
    let openAi: Awaited<ReturnType<typeof fakeOpenAi>>;
    let writer: 'write' | 'fail' = 'write';
    beforeAll(async () => {
      openAi = await fakeOpenAi(() => writer);
      server = await startTestServer(
        {
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: openAi.url,
          OPENAI_MAX_RETRIES: '0',
        },
        storage,
      );
      admin = server.client();
      await admin.signInAsAdmin();
    });
    afterAll(async () => {
      await server?.close();
      openAi?.close();
    });

    const member = async (prefix: string) => {
      const client = server.client();
      const me = await client.signIn(`${prefix}-${randomUUID()}@example.com`);
      return { client, id: me.id };
    };

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

    describe('a history of purchases, spends, a refunded spend, a Stripe refund and admin adjustments', () => {
      let ada: { client: Client; id: string };
      let bob: { client: Client; id: string };
      /** The end of the history: ranges up to it never change afterwards. */
      let end: string;
      let rows: LedgerExportRow[];
      const rowsOf = (userId: string) => rows.filter((r) => r.userId === userId);

      beforeAll(async () => {
        ada = await member('ada');
        bob = await member('bob');
        // Ada buys the Explorer pack for 17.99 USD.
        const pack = packCheckout(ada.id, 2, { amountTotal: 1799 });
        expect(
          (await deliver(server, signed('checkout.session.completed', pack))).body.outcome,
        ).toBe('granted');
        // An admin takes 12 back (the free 10 and 2 of the pack), with a reason a spreadsheet
        // would run as a formula.
        expect(
          (
            await admin.post(`/api/admin/users/${ada.id}/credits`, {
              amount: -12,
              reason: '=HYPERLINK("https://example.com","correction")',
            })
          ).status,
        ).toBe(200);
        // A reading (5 credits of the pack), then one whose writer fails: spent and given back.
        expect((await ada.client.post('/api/readings/life-path', lifePath)).status).toBe(201);
        writer = 'fail';
        expect((await ada.client.post('/api/readings/life-path', lifePath)).status).toBe(502);
        writer = 'write';
        // Stripe refunds 5.40 of the 17.99: 30 credits of the pack are taken back.
        const refund = refundedCharge(ada.id, pack.payment_intent, 1799, 540);
        expect((await deliver(server, signed('charge.refunded', refund))).body.outcome).toBe(
          'reversed',
        );
        // Bob pays in euros, is given 7 credits with a reason that CSV must quote, and reads.
        const euro = packCheckout(bob.id, 2, { amountTotal: 1500, currency: 'eur' });
        await deliver(server, signed('checkout.session.completed', euro));
        expect(
          (
            await admin.post(`/api/admin/users/${bob.id}/credits`, {
              amount: 7,
              reason: 'Goodwill, "sorry" for the wait',
            })
          ).status,
        ).toBe(200);
        expect((await bob.client.post('/api/readings/life-path', lifePath)).status).toBe(201);
        // An admin holds back 20 of Bob's credits with a reason that reads like Stripe ids: the 5
        // free and 7 promotional credits left go first, then 8 of the pack (⌊1500 × 8 ÷ 100⌋ = 120).
        expect(
          (
            await admin.post(`/api/admin/users/${bob.id}/credits`, {
              amount: -20,
              reason: FORGED,
            })
          ).status,
        ).toBe(200);
        await caughtUp(server);
        // A moment after the last event: later events (sign-ins) stay out of `[…, end)`.
        await new Promise((resolve) => setTimeout(resolve, 5));
        end = new Date().toISOString();
        const answer = await rawGet(
          server.url,
          `/api/admin/exports/ledger?format=jsonl&to=${end}`,
          admin.cookie,
        );
        expect(answer.status).toBe(200);
        rows = jsonLines(answer.body);
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

            const bad = await cli('ledger:export', ['--format', 'xml'], env);
            expect(bad.code).toBe(2);
            expect(bad.stderr).toMatch(/--format/);
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
        120_000,
      );

      it('reports the month: the roll-forward meets the balances, the money meets the lots', async () => {
        const month = rowsOf(ada.id)[0]!.occurredAt.slice(0, 7);
        const answer = await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`);
        expect(answer.status).toBe(200);
        const report = answer.body;
        const [year, m] = month.split('-').map(Number) as [number, number];
        expect(report).toMatchObject({
          month,
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
          },
          {
            currency: 'usd',
            cashToDate: 1259,
            recognizedToDate: 90,
            adminDeductionsToDate: 35,
            deferred: 1134,
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
            'Money in usd (minor units): cash to date 1259 = recognized to date 90 + admin deductions to date 35 + deferred now 1134',
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
    });
  });
}
