import type { AdminStats, AdminStatsMoney, MonthlyReport } from '@astra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  me,
  member,
  packCheckout,
  paidInvoice,
  refundedCharge,
  uid,
  webhookSigner,
} from './stripeWebhooks.ts';
import { caughtUp, startTestServer, type TestServer } from './support.ts';

/** The admin dashboard's figures: from the projections, Stripe's money net of refunds. */

const WEBHOOK_SECRET = 'whsec_test_admin_stats_secret';
const signed = webhookSigner(WEBHOOK_SECRET);

const today = () => new Date().toISOString().slice(0, 10);
const on = (series: AdminStats['series']['signups'], day: string) =>
  series.find((point) => point.day === day)?.value;

describe('GET /api/admin/stats', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(() => server?.close());

  it('is for unlocked admins only', async () => {
    expect((await server.client().get('/api/admin/stats')).status).toBe(401);
    const { client: user } = await member(server, 'stats-user');
    const refused = await user.get('/api/admin/stats');
    expect([refused.status, refused.body.error]).toEqual([403, 'admin_required']);
    const admin = server.client();
    await admin.signIn('admin@example.com', 'Ada Admin');
    const locked = await admin.get('/api/admin/stats');
    expect([locked.status, locked.body.error]).toEqual([403, 'admin_locked']);
    await admin.signInAsAdmin();
    expect((await admin.get('/api/admin/stats')).status).toBe(200);
  });

  it("counts signups, credits used and Stripe's money net of refunds, by UTC day, as of the newest event", async () => {
    const admin = server.client();
    await admin.signInAsAdmin();
    await caughtUp(server);
    const before = (await admin.get<AdminStats>('/api/admin/stats')).body;
    expect(before.currency).toBe('usd');
    for (const series of Object.values(before.series)) {
      expect(series).toHaveLength(30);
      expect(series.at(-1)!.day).toBe(today());
      expect(series.map((p) => p.day)).toEqual([...series.map((p) => p.day)].sort());
    }

    // Two sign-ups; one spends 4 credits on a reading.
    const ada = await member(server, 'stats-ada');
    const bob = await member(server, 'stats-bob');
    const reading = await ada.client.post('/api/readings/tarot-traditional', {
      firstName: 'Ada',
      question: 'Will the dashboard add up?',
    });
    expect(reading.status).toBe(201);

    // Ada buys a pack for 17.99 and Bob a month for 9.99, as Stripe reports them.
    const pack = packCheckout(ada.id, 2, { amountTotal: 1799 });
    expect((await deliver(server, signed('checkout.session.completed', pack))).body.outcome).toBe(
      'granted',
    );
    expect(
      (
        await deliver(
          server,
          signed(
            'invoice.paid',
            paidInvoice(bob.id, 1, `sub_${uid()}`, new Date().toISOString(), { amountPaid: 999 }),
          ),
        )
      ).body.outcome,
    ).toBe('renewed');
    // A pack paid in another currency is no revenue in the pricing currency.
    const euro = packCheckout(bob.id, 2, { amountTotal: 1500, currency: 'eur' });
    await deliver(server, signed('checkout.session.completed', euro));

    // 0.05 back: too little to take a credit back, but money all the same.
    const balance = (await me(ada.client)).remainingCredits;
    const tiny = refundedCharge(ada.id, pack.payment_intent, 1799, 5);
    expect((await deliver(server, signed('charge.refunded', tiny))).body.outcome).toBe(
      'refund recorded: no credit to take back',
    );
    expect((await me(ada.client)).remainingCredits).toBe(balance);
    // Then 5.40 in all (5.35 more), and the same refund again, which adds nothing.
    const partial = refundedCharge(ada.id, pack.payment_intent, 1799, 540);
    expect((await deliver(server, signed('charge.refunded', partial))).body.outcome).toBe(
      'reversed',
    );
    expect((await deliver(server, signed('charge.refunded', partial))).body.outcome).toBe(
      'already reversed',
    );

    await caughtUp(server);
    const after = (await admin.get<AdminStats>('/api/admin/stats')).body;
    const revenue = 1799 + 999 - 540;
    expect(after.revenueThisMonthMinor - before.revenueThisMonthMinor).toBe(revenue);
    const day = today();
    expect(on(after.series.revenueMinor, day)! - on(before.series.revenueMinor, day)!).toBe(
      revenue,
    );
    expect(on(after.series.signups, day)! - on(before.series.signups, day)!).toBe(2);
    expect(on(after.series.creditsUsed, day)! - on(before.series.creditsUsed, day)!).toBe(4);
    expect(after.totalUsers - before.totalUsers).toBe(2);
    expect(after.activeUsers - before.activeUsers).toBe(2);
    expect(after.totalCreditsUsed - before.totalCreditsUsed).toBe(4);
    // The moment moves with the newest event the read models applied.
    expect(after.asOf).not.toBeNull();
    expect(Date.parse(after.asOf!)).toBeGreaterThan(Date.parse(before.asOf!));
    expect(Date.parse(after.asOf!)).toBeLessThanOrEqual(Date.now());
  });
  it("shows this month's recognized revenue and cash in every currency, as the month report has them", async () => {
    const admin = server.client();
    await admin.signInAsAdmin();
    // Money in two currencies this month: a USD pack and a EUR pack, each spent from, one refunded in part.
    const ada = await member(server, 'month-ada');
    const eve = await member(server, 'month-eve');
    const usd = packCheckout(ada.id, 2, { amountTotal: 1799 });
    const eur = packCheckout(eve.id, 2, { amountTotal: 1500, currency: 'eur' });
    await deliver(server, signed('checkout.session.completed', usd));
    await deliver(server, signed('checkout.session.completed', eur));
    for (const client of [ada.client, eve.client, eve.client, eve.client]) {
      const reading = await client.post('/api/readings/tarot-traditional', {
        firstName: 'Eve',
        question: 'Which currency is mine?',
      });
      expect(reading.status).toBe(201);
    }
    const refund = refundedCharge(ada.id, usd.payment_intent, 1799, 300);
    await deliver(server, signed('charge.refunded', refund));

    const stats = (await admin.get<AdminStats>('/api/admin/stats')).body;
    const money = (await admin.get<AdminStatsMoney>('/api/admin/stats/money')).body;
    const month = new Date().toISOString().slice(0, 7);
    const report = (await admin.get<MonthlyReport>(`/api/admin/reports/monthly?month=${month}`))
      .body;
    expect(money.month).toBe(month);
    expect(money.from).toBe(report.from);
    expect(money.to).toBe(report.to);
    // Every currency of the report, each with the report's figures for the month.
    expect(money.money).toEqual(
      report.money.map((line) => ({
        currency: line.currency,
        recognizedMinor: line.recognized,
        cashInMinor: line.cashIn,
        refundsMinor: line.refunds,
        cashNetMinor: line.cashIn - line.refunds,
      })),
    );
    expect(money.money.map((line) => line.currency)).toEqual(['eur', 'usd']);
    const eurLine = money.money.find((line) => line.currency === 'eur')!;
    expect(eurLine.cashInMinor).toBeGreaterThanOrEqual(1500);
    expect(eurLine.recognizedMinor).toBeGreaterThan(0);
    expect(money.money.find((line) => line.currency === 'usd')!.refundsMinor).toBeGreaterThan(0);
    // Recognized is not cash: the card's old figure (USD cash net of refunds) stays as it was.
    expect(stats.revenueThisMonthMinor).toBe(
      money.money.find((line) => line.currency === 'usd')!.cashNetMinor,
    );
    expect(BigInt(money.through)).toBeGreaterThan(0n);
  });

  it('counts blocked and deleted users apart: "blocked" does not count the deleted', async () => {
    const admin = server.client();
    await admin.signInAsAdmin();
    await caughtUp(server);
    const before = (await admin.get<AdminStats>('/api/admin/stats')).body;
    const blocked = await member(server, 'stats-blocked');
    const deleted = await member(server, 'stats-deleted');
    const gone = await member(server, 'stats-gone');
    expect((await admin.post(`/api/admin/users/${blocked.id}/block`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/users/${deleted.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/users/${gone.id}`)).status).toBe(200);
    await caughtUp(server);
    const after = (await admin.get<AdminStats>('/api/admin/stats')).body;
    expect(after.totalUsers - before.totalUsers).toBe(3);
    expect(after.activeUsers - before.activeUsers).toBe(0);
    expect(after.blockedUsers - before.blockedUsers).toBe(1);
    expect(after.deletedUsers - before.deletedUsers).toBe(2);
    expect(after.totalUsers).toBe(after.activeUsers + after.blockedUsers + after.deletedUsers);
  });
});
