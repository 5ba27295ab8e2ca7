import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, postgresForTests } from '@astra/event-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../build.ts';
import { startBundledApi } from './bundledApi.ts';
import { bodyOf, type SmtpDouble, startSmtpDouble } from './smtpDouble.ts';
import { packCheckout, type SignedEvent, webhookSigner } from './stripeWebhooks.ts';
import { Client, until } from './support.ts';

const WEBHOOK_SECRET = 'whsec_test_mail_crash';
const signed = webhookSigner(WEBHOOK_SECRET);
const withPostgres = await postgresForTests();
/** Messages a sender hands over at once (`ReactorRunner`'s concurrency): at most these repeat. */
const IN_FLIGHT = 8;
const PURCHASES = 50;
const MEMBERS = 10;

const post = (url: string, event: SignedEvent) =>
  new Client(url)
    .request('POST', '/api/webhooks/stripe', event.payload, { 'stripe-signature': event.header })
    .then(
      (answer) => answer.status,
      () => 0, // cut off by the crash
    );

/**
 * `kill -9` while a burst of purchases is being answered and their receipts sent; after the
 * restart Stripe delivers again what was not acknowledged (here: everything, once more).
 */
async function crashInABurst(smtp: SmtpDouble, storage: Record<string, string>) {
  const env = {
    ...storage,
    SMTP_URL: smtp.url(),
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    MAIL_RETRY_BASE_MS: '200',
    LOG_LEVEL: 'info',
  };
  let api = await startBundledApi(env);
  try {
    const members = await Promise.all(
      Array.from({ length: MEMBERS }, async (_, i) => {
        const client = new Client(api.url);
        const me = await client.signIn(`burst-${i}-${Date.now()}@example.com`);
        return me.id as string;
      }),
    );
    const sessions = Array.from({ length: PURCHASES }, (_, i) =>
      packCheckout(members[i % MEMBERS]!, 2),
    );
    const events = sessions.map((session) => signed('checkout.session.completed', session));
    const before = smtp.accepted.length;
    const burst = Promise.all(events.map((event) => post(api.url, event)));
    // Killed while receipts are being handed over.
    await until('the first receipts', () => smtp.accepted.length >= before + 5, 60_000);
    api.child.kill('SIGKILL');
    await api.exited;
    await burst;
    api = await startBundledApi(env);
    for (const status of await Promise.all(events.map((event) => post(api.url, event))))
      expect(status).toBe(200);
    const receiptsOf = (sessionId: string) =>
      smtp.accepted.slice(before).filter((mail) => bodyOf(mail).includes(sessionId));
    await until(
      'a receipt for every purchase',
      () => sessions.every((session) => receiptsOf(session.id).length > 0),
      60_000,
    );
    let repeats = 0;
    for (const session of sessions) {
      const receipts = receiptsOf(session.id);
      expect(receipts.length).toBeLessThanOrEqual(2);
      if (receipts.length === 2) {
        repeats++;
        expect(receipts[1]!.messageId).toBe(receipts[0]!.messageId);
      }
    }
    expect(repeats).toBeLessThanOrEqual(IN_FLIGHT);
    return { repeats };
  } finally {
    if (api.child.exitCode === null && api.child.signalCode === null) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
  }
}

// The two databases side by side: each is mostly waiting (for its child process, for receipts).
describe.concurrent('receipts across a kill -9', () => {
  let smtp: SmtpDouble;
  beforeAll(async () => {
    smtp = await startSmtpDouble();
    await buildApi();
  }, 60_000);
  afterAll(() => smtp?.close());

  it('on PGlite: every purchase of the burst gets its receipt, a repeat only of one being handed over, with the same Message-ID', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-mail-crash-'));
    try {
      await crashInABurst(smtp, { DATA_DIR: dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("on PostgreSQL: the same, the killed process's messages taken over once it stops beating", async () => {
    if (!withPostgres) return;
    const database = await createThrowawayDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-mail-crash-'));
    try {
      await crashInABurst(smtp, { DATABASE_URL: database.url, DATA_DIR: dataDir });
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
