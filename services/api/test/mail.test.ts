import { postgresForTests } from '@astra/event-store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, type SmtpDouble, startSmtpDouble } from './smtpDouble.ts';
import {
  deliver,
  member,
  packCheckout,
  paidInvoice,
  refundedCharge,
  uid,
  webhookSigner,
} from './stripeWebhooks.ts';
import { type Client, caughtUp, startTestServer, type TestServer, until } from './support.ts';

const WEBHOOK_SECRET = 'whsec_test_mail_secret';
const signed = webhookSigner(WEBHOOK_SECRET);
const withPostgres = await postgresForTests();

/** The outbox rows of the mail reactor, as the database holds them. */
const outbox = async (server: TestServer, userId?: string) =>
  (
    await sql<{
      id: string;
      kind: string;
      status: string;
      attempts: number;
      recipient: string | null;
      payload: unknown;
      last_error: string | null;
    }>`SELECT id, kind, status, attempts, recipient, payload, last_error FROM app.outbox
       WHERE reactor = 'mail' AND (${userId ?? null}::text IS NULL OR user_id = ${userId ?? null})
       ORDER BY created_at`.execute(server.deps.db)
  ).rows;

const signUp = async (server: TestServer, prefix: string) => {
  const { client, id } = await member(server, prefix);
  const email = (await client.get('/api/me')).body.email as string;
  return { client, id, email };
};

describe.each(withPostgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'e-mail as reactions to the log, on %s',
  (storage) => {
    let smtp: SmtpDouble;
    let server: TestServer;
    let admin: Client;
    beforeAll(async () => {
      smtp = await startSmtpDouble();
      server = await startTestServer(
        {
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          SMTP_URL: smtp.url(),
          MAIL_FROM: 'Astra <receipts@astra-readings.test>',
          MAIL_RETRY_BASE_MS: '200',
          MAIL_MAX_ATTEMPTS: '30',
        },
        storage,
      );
      admin = server.client();
      await admin.signInAsAdmin();
    });
    afterAll(async () => {
      await server?.close();
      await smtp?.close();
    });

    it('one purchase sends exactly one receipt to the buyer, with its credits and amount', async () => {
      const buyer = await signUp(server, 'receipt');
      const session = packCheckout(buyer.id, 2, { amountTotal: 1799, currency: 'usd' });
      expect((await deliver(server, signed('checkout.session.completed', session))).status).toBe(
        200,
      );
      const [receipt] = await until('the receipt', () =>
        smtp.to(buyer.email).length ? smtp.to(buyer.email) : null,
      );
      await until('its outcome', async () =>
        (await outbox(server, buyer.id)).every((row) => row.status === 'sent'),
      );
      const credits = (await server.deps.ledger.load('credits', buyer.id)).state;
      const granted = credits.lots.find((lot) => lot.id === `checkout:${session.id}`)!;
      expect(receipt!.subject).toContain(`${granted.remaining} credits`);
      const text = bodyOf(receipt!);
      expect(text).toContain('$17.99');
      expect(text).toContain(session.id);
      expect(receipt!.messageId).toMatch(/^<.+@astra-readings\.test>$/);
      expect(smtp.to(buyer.email)).toHaveLength(1);
      const [row] = await outbox(server, buyer.id);
      expect(row).toMatchObject({ kind: 'purchase_receipt', status: 'sent', attempts: 1 });
    });

    it('the same Stripe event delivered five times sends one message', async () => {
      const buyer = await signUp(server, 'redelivered');
      const event = signed('checkout.session.completed', packCheckout(buyer.id, 2));
      for (let i = 0; i < 5; i++) expect((await deliver(server, event)).status).toBe(200);
      await caughtUp(server);
      await until('the receipt', () => smtp.to(buyer.email).length > 0);
      await until('every outcome', async () =>
        (await outbox(server)).every((row) => row.status !== 'pending' && row.status !== 'sending'),
      );
      expect(smtp.to(buyer.email)).toHaveLength(1);
      expect(await outbox(server, buyer.id)).toHaveLength(1);
    });

    it('with the SMTP server down, the messages wait and arrive once after it returns', async () => {
      const buyers = await Promise.all([0, 1, 2].map((i) => signUp(server, `outage-${i}`)));
      await smtp.stop();
      try {
        for (const buyer of buyers)
          await deliver(server, signed('checkout.session.completed', packCheckout(buyer.id, 2)));
        // Each has failed again and again, and is still waiting for another attempt.
        await until(
          'repeated failures',
          async () => {
            const rows = (await Promise.all(buyers.map((b) => outbox(server, b.id)))).flat();
            return rows.length === 3 && rows.every((row) => row.attempts >= 3 && row.last_error);
          },
          30_000,
        );
        const overview = await admin.get('/api/admin/projections');
        const mail = overview.body.reactors.find((r: { name: string }) => r.name === 'mail');
        expect(mail.failing).toBeGreaterThanOrEqual(3);
        expect(mail.parked).toBe(0);
      } finally {
        await smtp.start();
      }
      for (const buyer of buyers)
        await until(`${buyer.email}'s receipt`, () => smtp.to(buyer.email).length);
      await until('every outcome', async () =>
        (await Promise.all(buyers.map((b) => outbox(server, b.id))))
          .flat()
          .every((row) => row.status === 'sent'),
      );
      for (const buyer of buyers) expect(smtp.to(buyer.email)).toHaveLength(1);
    });

    it('a recipient the server refuses is parked, shown on the Projections page, and sent when retried', async () => {
      const buyer = await signUp(server, 'refused');
      smtp.refuse(buyer.email);
      await deliver(server, signed('checkout.session.completed', packCheckout(buyer.id, 2)));
      const [parked] = await until('the parked message', async () => {
        const rows = await outbox(server, buyer.id);
        return rows.some((row) => row.status === 'parked') ? rows : null;
      });
      expect(parked!.attempts).toBe(1); // refused for good: not tried again on its own
      expect(parked!.last_error).toMatch(/550/);
      const overview = await admin.get('/api/admin/projections');
      expect(overview.status).toBe(200);
      const mail = overview.body.reactors.find((r: { name: string }) => r.name === 'mail');
      expect(mail.parked).toBeGreaterThanOrEqual(1);
      expect(mail.problems).toContainEqual(
        expect.objectContaining({ id: parked!.id, status: 'parked', recipient: buyer.email }),
      );
      smtp.accept(buyer.email);
      const retried = await admin.post(`/api/admin/reactors/mail/messages/${parked!.id}/retry`, {});
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ id: parked!.id, status: 'pending', attempts: 0 });
      await until('the retried receipt', () => smtp.to(buyer.email).length);
      await until(
        'its outcome',
        async () => (await outbox(server, buyer.id))[0]?.status === 'sent',
      );
      expect(smtp.to(buyer.email)).toHaveLength(1);
      expect(
        (await admin.post(`/api/admin/reactors/mail/messages/${uid()}/retry`, {})).status,
      ).toBe(404);
      const metrics = await server.deps.metrics.registry.getSingleMetricAsString(
        'astra_reactor_messages_total',
      );
      expect(metrics).toMatch(/reactor="mail",kind="purchase_receipt",outcome="parked"} [1-9]/);
      expect(metrics).toMatch(/reactor="mail",kind="purchase_receipt",outcome="sent"} [1-9]/);
    });

    it('a subscription sends its first receipt, then a renewal; a failed payment, a cancellation and a refund each their message', async () => {
      const subscriber = await signUp(server, 'subscriber');
      const subscriptionId = `sub_${uid()}`;
      const first = paidInvoice(subscriber.id, 1, subscriptionId, '2026-10-01', {
        amountPaid: 999,
      });
      await deliver(server, signed('invoice.paid', first));
      await until('the first receipt', () => smtp.to(subscriber.email).length === 1);
      const second = paidInvoice(subscriber.id, 1, subscriptionId, '2026-11-01', {
        amountPaid: 999,
      });
      await deliver(server, signed('invoice.paid', second));
      await until('the renewal', () => smtp.to(subscriber.email).length === 2);
      const failedInvoice = {
        ...paidInvoice(subscriber.id, 1, subscriptionId, '2026-12-01'),
        status: 'open',
        amount_paid: 0,
        amount_due: 999,
        next_payment_attempt: Math.floor(Date.parse('2026-12-04T10:00:00Z') / 1000),
      };
      const failed = await deliver(server, signed('invoice.payment_failed', failedInvoice));
      expect(failed.body.outcome).toBe('payment failed: Stripe tries again on 2026-12-04');
      await until('the failed-payment message', () => smtp.to(subscriber.email).length === 3);
      await deliver(
        server,
        signed('customer.subscription.updated', {
          id: subscriptionId,
          object: 'subscription',
          status: 'active',
          cancel_at_period_end: true,
          metadata: { userId: subscriber.id, tierId: '1', billingType: 'subscription' },
        }),
      );
      await until('the cancellation', () => smtp.to(subscriber.email).length === 4);
      const [receipt, renewal, failure, cancellation] = smtp.to(subscriber.email);
      const rows = await outbox(server, subscriber.id);
      expect(rows.map((row) => row.kind)).toEqual([
        'subscription_receipt',
        'subscription_renewed',
        'payment_failed',
        'subscription_cancelled',
      ]);
      expect(bodyOf(receipt!)).toContain('$9.99');
      expect(bodyOf(receipt!)).toContain(first.id);
      expect(renewal!.subject).not.toBe(receipt!.subject);
      expect(bodyOf(failure!)).toContain('December 4, 2026');
      const accessUntil = (await server.deps.ledger.load('credits', subscriber.id)).state
        .subscription?.nextRenewalDate;
      expect(accessUntil).toBeTruthy();
      expect(cancellation!.subject.length).toBeGreaterThan(0);

      // A pack, refunded in half: the money back and the credits taken back.
      const buyer = await signUp(server, 'refunded');
      const paymentIntent = `pi_${uid()}`;
      await deliver(
        server,
        signed(
          'checkout.session.completed',
          packCheckout(buyer.id, 2, { paymentIntent, amountTotal: 1000 }),
        ),
      );
      await until('the receipt', () => smtp.to(buyer.email).length === 1);
      await deliver(
        server,
        signed('charge.refunded', refundedCharge(buyer.id, paymentIntent, 1000, 500)),
      );
      const [, refund] = await until('the refund message', () =>
        smtp.to(buyer.email).length === 2 ? smtp.to(buyer.email) : null,
      );
      const reversed = (await server.deps.ledger.load('credits', buyer.id)).state;
      expect(reversed).toBeTruthy();
      expect(bodyOf(refund!)).toContain('$5.00');
      expect((await outbox(server, buyer.id)).map((row) => row.kind)).toEqual([
        'purchase_receipt',
        'refund_issued',
      ]);
    });

    it('deleting an account sends the account-deleted message to the address on record, then keeps nothing of it', async () => {
      const leaving = await signUp(server, 'leaving');
      await deliver(server, signed('checkout.session.completed', packCheckout(leaving.id, 2)));
      await until('the receipt', () => smtp.to(leaving.email).length === 1);
      expect((await leaving.client.delete('/api/me')).status).toBeLessThan(300);
      const [, farewell] = await until('the farewell', () =>
        smtp.to(leaving.email).length === 2 ? smtp.to(leaving.email) : null,
      );
      expect(farewell!.subject.toLowerCase()).toContain('deleted');
      await until('its outcome', async () =>
        (await outbox(server, leaving.id)).every((row) => row.status === 'sent'),
      );
      // Sent, and erased: no address and no text of theirs stay in the outbox.
      for (const row of await outbox(server, leaving.id)) {
        expect(row.recipient).toBeNull();
        expect(row.payload).toBeNull();
      }
      const { rows } = await sql<{
        dump: string;
      }>`SELECT string_agg(o::text, ' ') AS dump FROM app.outbox o`.execute(server.deps.db);
      expect(rows[0]!.dump).not.toContain(leaving.email);
    });
  },
);
