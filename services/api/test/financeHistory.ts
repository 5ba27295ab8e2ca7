/** A finance server and the history of purchases, spends and refunds its specs read, with their readers. */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LedgerExportRow, ledgerExportRowSchema } from '@astra/contracts';
import { expect } from 'vitest';
import { fakeOpenAi } from './openAiDouble.ts';
import { deliver, member, packCheckout, refundedCharge, webhookSigner } from './stripeWebhooks.ts';
import { type Client, caughtUp, startTestServer, type TestServer } from './support.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const WEBHOOK_SECRET = 'whsec_test_finance_secret';
/** Stripe events signed for the finance server's webhook. */
export const signed = webhookSigner(WEBHOOK_SECRET);
const lifePath = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' };
/** An admin's reason written to pass for Stripe ids in a `key=value; …` cause. */
export const FORGED = 'Chargeback pending review; paymentIntentId=pi_FAKE; chargeId=ch_FAKE';
export const HISTORY =
  'a history of purchases, spends, a refunded spend, a Stripe refund and admin adjustments';

/** A GET read as bytes, with the response's headers and trailers (fetch shows no trailers). */
export function rawGet(base: string, path: string, cookie: string | undefined) {
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

export const jsonLines = (body: Buffer) =>
  body
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => ledgerExportRowSchema.parse(JSON.parse(line)));

/** Runs one of the root package's scripts (`npm run …`). */
export async function cli(script: string, args: string[], env: Record<string, string>) {
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

export type FinanceServer = Awaited<ReturnType<typeof startFinanceServer>>;

/** A server with an admin signed in, beside an OpenAI double whose writer the history fails once. */
export async function startFinanceServer(storage: 'postgres' | 'pglite') {
  let writer: 'write' | 'fail' = 'write';
  const openAi = await fakeOpenAi(() => writer);
  const server = await startTestServer(
    {
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openAi.url,
      OPENAI_MAX_RETRIES: '0',
    },
    storage,
  );
  const admin = server.client();
  await admin.signInAsAdmin();
  return {
    server,
    admin,
    member: (prefix: string) => member(server, prefix),
    history: () =>
      buildHistory(server, admin, (next) => {
        writer = next;
      }),
    async close() {
      await server.close();
      openAi.close();
    },
  };
}

/** Writes the {@link HISTORY} and reads it back from the export, up to a moment after its end. */
async function buildHistory(
  server: TestServer,
  admin: Client,
  writes: (writer: 'write' | 'fail') => void,
) {
  const ada = await member(server, 'ada');
  const bob = await member(server, 'bob');
  // Ada buys the Explorer pack for 17.99 USD.
  const pack = packCheckout(ada.id, 2, { amountTotal: 1799 });
  expect((await deliver(server, signed('checkout.session.completed', pack))).body.outcome).toBe(
    'granted',
  );
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
  writes('fail');
  expect((await ada.client.post('/api/readings/life-path', lifePath)).status).toBe(502);
  writes('write');
  // Stripe refunds 5.40 of the 17.99: 30 credits of the pack are taken back.
  const refund = refundedCharge(ada.id, pack.payment_intent, 1799, 540);
  expect((await deliver(server, signed('charge.refunded', refund))).body.outcome).toBe('reversed');
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
  /** The end of the history: ranges up to it never change afterwards. */
  const end = new Date().toISOString();
  const answer = await rawGet(
    server.url,
    `/api/admin/exports/ledger?format=jsonl&to=${end}`,
    admin.cookie,
  );
  expect(answer.status).toBe(200);
  const rows: LedgerExportRow[] = jsonLines(answer.body);
  const rowsOf = (userId: string) => rows.filter((r) => r.userId === userId);
  return { ada, bob, end, rows, rowsOf };
}

export type FinanceHistory = Awaited<ReturnType<typeof buildHistory>>;
