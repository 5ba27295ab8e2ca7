/** The server of the specs of Stripe's balance (payouts, disputes) and how they read its money. */
import { verifyLedger } from '@astra/projections';
import { expect } from 'vitest';
import { type StripeRequest, startStripeDouble, startTestServer } from './support.ts';

/**
 * A server taking webhooks signed with `webhookSecret` and asking a loopback Stripe API (`answer`)
 * on a clock stopped at `now`, an unlocked admin, and the readings of the books the specs compare.
 */
export async function stripeBalanceServer(
  webhookSecret: string,
  answer: (request: StripeRequest) => unknown,
  now: Date,
) {
  const double = await startStripeDouble(answer);
  const server = await startTestServer(
    {
      STRIPE_SECRET_KEY: 'sk_test_loopback',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      PUBLIC_URL: 'https://astra.example',
      ...double.env,
    },
    undefined,
    { clock: () => now },
  );
  const admin = server.client();
  await admin.signInAsAdmin();
  return {
    server,
    admin,
    /** The loopback Stripe API (its `requests`). */
    double,
    async close() {
      await server.close();
      await double.close();
    },
    /** The `stripe-balance` stream's events. */
    async balanceEvents() {
      const events: { type: string; data: any }[] = [];
      for await (const event of server.deps.ledger.store.readStream('stripe-balance'))
        events.push({ type: event.type, data: event.data });
      return events;
    },
    /** The money in usd since the log began, as `ledger:verify` replays it (no differences). */
    async money() {
      const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
      expect(report.differences).toEqual([]);
      return report.money.find((m) => m.currency === 'usd');
    },
    /** November's money in usd, as the month report gives it (flagged when the books do not meet). */
    async reported() {
      const { body } = await admin.get('/api/admin/reports/monthly?month=2026-11');
      expect(body.flags).toEqual([]);
      return body.money.find((m: { currency: string }) => m.currency === 'usd');
    },
  };
}
