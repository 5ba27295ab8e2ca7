/** Stripe's payouts through the webhook: their balance transactions listed from Stripe's API (a loopback stand-in), fees and money to the bank on `stripe-balance`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { member, signed, WEBHOOK_SECRET } from './paymentsFixtures.ts';
import { stripeBalanceServer } from './stripeBalanceServer.ts';
import { deliver, packCheckout, uid } from './stripeWebhooks.ts';
import type { Client, TestServer } from './support.ts';

/** The app's clock: every event of these tests happens in November 2026. */
const now = new Date('2026-11-25T12:00:00Z');

const payout = (id: string, status: 'paid' | 'failed', amount = 1600) => ({
  id,
  object: 'payout',
  amount,
  currency: 'usd',
  arrival_date: Date.parse('2026-11-24T00:00:00Z') / 1000,
  status,
});

const transaction = (
  id: string,
  type: string,
  amount: number,
  fee: number,
  source: string | null,
) => ({
  id,
  object: 'balance_transaction',
  type,
  amount,
  fee,
  net: amount - fee,
  currency: 'usd',
  // Expanded, as `expand: ['data.source']` asks.
  source: source ? { id: source, object: type } : null,
});

/** Stripe's list of a payout's balance transactions, in pages of two (`starting_after`). */
const listed: Record<string, ReturnType<typeof transaction>[]> = {
  po_paid: [
    transaction('txn_charge_1', 'charge', 1799, 82, 'ch_1'),
    transaction('txn_charge_2', 'charge', 999, 59, 'ch_2'),
    transaction('txn_refund_1', 'refund', -999, 0, 're_1'),
    transaction('txn_payout', 'payout', -1658, 0, 'po_paid'),
  ],
  po_unpaid: [transaction('txn_charge_3', 'charge', 799, 53, 'ch_3')],
  po_bad: [{ ...transaction('txn_bad', 'charge', 799, 53, 'ch_4'), fee: -1 }],
};

describe('payouts: fees and money to the bank, from the payout’s balance transactions', () => {
  let books: Awaited<ReturnType<typeof stripeBalanceServer>>;
  let server: TestServer;
  let admin: Client;
  let double: typeof books.double;
  let balanceEvents: typeof books.balanceEvents;
  let money: typeof books.money;
  let reported: typeof books.reported;
  beforeAll(async () => {
    books = await stripeBalanceServer(
      WEBHOOK_SECRET,
      ({ method, path }) => {
        const url = new URL(path, 'http://stripe.test');
        if (method !== 'GET' || url.pathname !== '/v1/balance_transactions') return undefined;
        const all = listed[url.searchParams.get('payout') ?? ''] ?? [];
        const after = url.searchParams.get('starting_after');
        const from = after ? all.findIndex((t) => t.id === after) + 1 : 0;
        return {
          object: 'list',
          url: '/v1/balance_transactions',
          data: all.slice(from, from + 2),
          has_more: from + 2 < all.length,
        };
      },
      now,
    );
    ({ server, admin, double, balanceEvents, money, reported } = books);
  });
  afterAll(() => books?.close());

  it('records a paid payout with every page of its balance transactions, its fees and its amount, once', async () => {
    const { id } = await member(server);
    const paid = await deliver(server, signed('checkout.session.completed', packCheckout(id)));
    expect(paid.body.outcome).toBe('granted');

    const event = signed('payout.paid', payout('po_paid', 'paid', 1658));
    expect(await deliver(server, event)).toMatchObject({
      status: 200,
      body: { outcome: 'payout paid' },
    });
    const asked = double.requests.filter((r) => r.path.startsWith('/v1/balance_transactions'));
    expect(
      asked.map((r) => new URL(r.path, 'http://stripe.test').searchParams.get('payout')),
    ).toEqual(['po_paid', 'po_paid']);
    expect(asked[0]!.path).toContain('expand');
    expect(asked[1]!.path).toContain('starting_after=txn_charge_2');

    expect(await balanceEvents()).toEqual([
      {
        type: 'PayoutRecorded',
        data: {
          eventId: expect.stringMatching(/^evt_/),
          payout: {
            id: 'po_paid',
            amountMinor: 1658,
            currency: 'usd',
            arrivalDate: '2026-11-24T00:00:00.000Z',
            status: 'paid',
          },
          transactions: listed.po_paid!.map((t) => ({
            id: t.id,
            type: t.type,
            currency: 'usd',
            amountMinor: t.amount,
            feeMinor: t.fee,
            netMinor: t.net,
            sourceId: t.source!.id,
          })),
          feesMinor: 141,
          paidOutMinor: 1658,
        },
      },
    ]);
    expect((await deliver(server, event)).body.duplicate).toBe(true);
    expect(await balanceEvents()).toHaveLength(1);
    // Stripe's balance = 1799 paid − 141 fees − 1658 paid out.
    expect(await money()).toMatchObject({ cashToDate: 1799, feesToDate: 141, paidOutToDate: 1658 });
    expect(await reported()).toMatchObject({
      cashIn: 1799,
      fees: 141,
      paidOut: 1658,
      feesToDate: 141,
      paidOutToDate: 1658,
    });
  });

  it('takes a paid payout that fails back into Stripe’s balance, its fees booked once', async () => {
    const failed = await deliver(
      server,
      signed('payout.failed', payout('po_paid', 'failed', 1658)),
    );
    expect(failed.body.outcome).toBe('payout failed');
    expect((await balanceEvents()).at(-1)!.data).toMatchObject({
      payout: { id: 'po_paid', status: 'failed' },
      feesMinor: 0,
      paidOutMinor: -1658,
    });
    expect(await money()).toMatchObject({ feesToDate: 141, paidOutToDate: 0 });
  });

  it('moves nothing to the bank for a payout that fails unpaid; its fees are Stripe’s all the same', async () => {
    await deliver(server, signed('payout.failed', payout('po_unpaid', 'failed', 746)));
    expect((await balanceEvents()).at(-1)!.data).toMatchObject({ feesMinor: 53, paidOutMinor: 0 });
    expect(await money()).toMatchObject({ feesToDate: 194, paidOutToDate: 0 });
    expect(await reported()).toMatchObject({ fees: 194, paidOut: 0 });
  });

  it('refuses a payout whose balance transactions are not what Stripe sends, recording nothing on the balance', async () => {
    const before = (await balanceEvents()).length;
    const answer = await deliver(server, signed('payout.paid', payout('po_bad', 'paid')));
    expect(answer.body.outcome).toBe('refused: invalid balance transaction 0 fee');
    const unsound = await deliver(
      server,
      signed('payout.paid', { ...payout(`po_${uid()}`, 'paid'), amount: -5 }),
    );
    expect(unsound.body.outcome).toBe('refused: invalid data.object.amount');
    expect(await balanceEvents()).toHaveLength(before);
  });

  it('ties each payout of the month to the bank, and flags one whose transactions do not add up', async () => {
    // A payout whose transactions are a charge, a dispute (withdrawn, with its fee) and Stripe's
    // fee of its own, but whose amount is a cent more than they add up to.
    listed.po_dispute = [
      transaction('txn_charge_5', 'charge', 4999, 175, 'ch_5'),
      transaction('txn_dispute_1', 'adjustment', -999, 1500, 'du_1'),
      transaction('txn_fee_1', 'stripe_fee', -25, 0, null),
    ];
    const paid = signed('payout.paid', payout('po_dispute', 'paid', 2301));
    expect((await deliver(server, paid)).body.outcome).toBe('payout paid');
    const { status, body } = await admin.get('/api/admin/reports/payouts?month=2026-11');
    expect(status).toBe(200);
    expect(body).toMatchObject({ month: '2026-11', timeZone: 'UTC' });
    // The refused ones are not on the ledger; the rest arrive on one day, in order of id.
    expect(body.payouts.map((p: { payoutId: string }) => p.payoutId)).toEqual([
      'po_dispute',
      'po_paid',
      'po_unpaid',
    ]);
    expect(body.payouts[0]).toEqual({
      payoutId: 'po_dispute',
      status: 'paid',
      currency: 'usd',
      arrivalDate: '2026-11-24T00:00:00.000Z',
      charges: 4999,
      refunds: 0,
      fees: 1700,
      disputes: -999,
      other: 0,
      expected: 2300,
      amount: 2301,
      difference: 1,
      transactions: 3,
    });
    // Failed after it was paid: its transactions still add up to its amount.
    expect(body.payouts[1]).toMatchObject({
      status: 'failed',
      charges: 2798,
      refunds: 999,
      fees: 141,
      expected: 1658,
      difference: 0,
    });
    expect(body.flags).toEqual([
      'po_dispute (usd): its transactions add up to 2300, it paid out 2301 (difference 1)',
    ]);
    // Another month has none of them.
    expect((await admin.get('/api/admin/reports/payouts?month=2026-12')).body.payouts).toEqual([]);
  });

  it('answers anonymous 401, users and locked admins 403, unlocked admins 200; a bad month 400', async () => {
    const path = '/api/admin/reports/payouts?month=2026-11';
    const { client: user } = await member(server);
    const locked = server.client();
    await locked.signIn('admin@example.com');
    expect((await server.client().get(path)).status).toBe(401);
    expect((await user.get(path)).body.error).toBe('admin_required');
    expect((await locked.get(path)).body.error).toBe('admin_locked');
    expect((await admin.get(path)).status).toBe(200);
    for (const month of ['2026-13', 'november', '']) {
      const answer = await admin.get(`/api/admin/reports/payouts?month=${month}`);
      expect(answer.status, month).toBe(400);
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toEqual(['month']);
    }
  });
});
