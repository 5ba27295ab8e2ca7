/** Stripe disputes through the webhook: a pack's credits held while open, freed when won, taken back when lost; the money withdrawn and returned on `stripe-balance`, the charge asked of Stripe's API (a loopback stand-in). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, member, signed, WEBHOOK_SECRET } from './moneyFixtures.ts';
import { forms } from './readingForms.ts';
import { stripeBalanceServer } from './stripeBalanceServer.ts';
import { deliver, me, packCheckout, uid } from './stripeWebhooks.ts';
import type { Client, TestServer } from './support.ts';

/** The app's clock: every event of these tests happens in November 2026. */
const now = new Date('2026-11-25T12:00:00Z');

/** Charges Stripe's API knows, by id (`GET /v1/charges/:id`). */
const charges = new Map<string, Record<string, unknown>>();
/** The balance transactions of payouts, by payout (`GET /v1/balance_transactions?payout=`). */
const payoutTransactions = new Map<string, Record<string, unknown>[]>();

/** A paid pack's charge, its payment intent's metadata copied on (as our checkout sets it). */
const packCharge = (userId: string, paymentIntent: string, amount = 1799) => {
  const charge = {
    id: `ch_${uid()}`,
    object: 'charge',
    amount,
    currency: 'usd',
    payment_intent: paymentIntent,
    metadata: { userId, tierId: '2', billingType: 'one_time' },
  };
  charges.set(charge.id, charge);
  return charge;
};

const transaction = (id: string, amount: number, fee: number, dispute: string) => ({
  id,
  object: 'balance_transaction',
  type: 'adjustment',
  amount,
  fee,
  net: amount - fee,
  currency: 'usd',
  source: dispute,
});

/** A dispute of a charge as Stripe sends it, with the balance transactions of its money. */
const dispute = (
  charge: { id: string; payment_intent: string; amount: number },
  status: string,
  transactions: ReturnType<typeof transaction>[],
  id = `du_${uid()}`,
) => ({
  id,
  object: 'dispute',
  charge: charge.id,
  payment_intent: charge.payment_intent,
  amount: charge.amount,
  currency: 'usd',
  status,
  balance_transactions: transactions,
});

describe('disputes: credits held, freed or taken back, and the money on Stripe’s balance', () => {
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
        if (method !== 'GET') return undefined;
        const url = new URL(path, 'http://stripe.test');
        if (url.pathname === '/v1/balance_transactions') {
          const data = payoutTransactions.get(url.searchParams.get('payout') ?? '') ?? [];
          return { object: 'list', url: url.pathname, data, has_more: false };
        }
        const charge = /^\/v1\/charges\/([^/]+)$/.exec(url.pathname);
        return charge ? charges.get(charge[1]!) : undefined;
      },
      now,
    );
    ({ server, admin, double, balanceEvents, money, reported } = books);
  });
  afterAll(() => books?.close());

  /** A member with 10 free credits and a pack of 100 paid by a charge Stripe's API knows. */
  const packBuyer = async () => {
    const buyer = await member(server);
    const paymentIntent = `pi_${uid()}`;
    const granted = await deliver(
      server,
      signed('checkout.session.completed', packCheckout(buyer.id, 2, { paymentIntent })),
    );
    expect(granted.body.outcome).toBe('granted');
    return { ...buyer, charge: packCharge(buyer.id, paymentIntent) };
  };

  it('holds a disputed pack’s credits: a reading that needs them is refused, once per event', async () => {
    const { client, id, charge } = await packBuyer();
    const withdrawn = transaction(`txn_${uid()}`, -1799, 1500, 'du_held');
    const opened = signed(
      'charge.dispute.created',
      dispute(charge, 'needs_response', [withdrawn], 'du_held'),
    );
    expect((await deliver(server, opened)).body.outcome).toBe('dispute opened: credits on hold');
    expect(double.requests.some((r) => r.path.startsWith(`/v1/charges/${charge.id}`))).toBe(true);
    expect(await eventsOf(server, id, 'DisputeOpened')).toEqual([
      {
        disputeId: 'du_held',
        grantId: expect.stringMatching(/^checkout:cs_test_/),
        amountMinor: 1799,
        currency: 'usd',
        reference: {
          disputeId: 'du_held',
          chargeId: charge.id,
          paymentIntentId: charge.payment_intent,
        },
      },
    ]);
    expect((await balanceEvents()).at(-1)).toMatchObject({
      type: 'DisputeRecorded',
      data: {
        dispute: {
          id: 'du_held',
          chargeId: charge.id,
          amountMinor: 1799,
          status: 'needs_response',
        },
        feesMinor: 1500,
        disputesMinor: 1799,
      },
    });
    expect((await deliver(server, opened)).body.duplicate).toBe(true);

    // The balance still shows 110, but only the 10 free credits can be spent.
    expect((await me(client)).remainingCredits).toBe(110);
    const refused = await client.post('/api/readings/natal-chart', forms['natal-chart']);
    expect(refused).toMatchObject({
      status: 402,
      body: {
        error: 'insufficient_credits',
        message:
          'You need 24 credits but can use 10: 100 are on hold while a payment of yours is disputed.',
        required: 24,
        balance: 10,
        held: 100,
      },
    });
    const cheap = await client.post('/api/readings/tarot-traditional', forms['tarot-traditional']);
    expect(cheap.status).toBe(201);
    expect((await me(client)).remainingCredits).toBe(106);

    // Stripe's balance: 1799 paid − 1500 dispute fee − 1799 withdrawn, the books still meet.
    expect(await money()).toMatchObject({
      cashToDate: 1799,
      feesToDate: 1500,
      disputesToDate: 1799,
    });
    expect(await reported()).toMatchObject({ disputes: 1799, disputesToDate: 1799, fees: 1500 });
  });

  it('frees the credits when the dispute is won, and books the money returned', async () => {
    const { client, charge } = await packBuyer();
    const before = await money();
    const withdrawn = transaction(`txn_${uid()}`, -1799, 1500, 'du_won');
    const returned = transaction(`txn_${uid()}`, 1799, 0, 'du_won');
    await deliver(
      server,
      signed('charge.dispute.created', dispute(charge, 'needs_response', [withdrawn], 'du_won')),
    );
    const won = await deliver(
      server,
      signed('charge.dispute.closed', dispute(charge, 'won', [withdrawn, returned], 'du_won')),
    );
    expect(won.body.outcome).toBe('dispute won: credits released');
    expect((await balanceEvents()).at(-1)!.data).toMatchObject({
      feesMinor: 0,
      disputesMinor: -1799,
    });
    const reading = await client.post('/api/readings/natal-chart', forms['natal-chart']);
    expect(reading.status).toBe(201);
    // The money came back; the dispute fee stays Stripe's.
    expect(await money()).toMatchObject({
      cashToDate: before!.cashToDate,
      feesToDate: before!.feesToDate + 1500,
      disputesToDate: before!.disputesToDate,
    });
  });

  it('takes the credits back when the dispute is lost, what was spent before it the shortfall', async () => {
    const { client, id, charge } = await packBuyer();
    // 24 spent: the 10 free credits, then 14 of the pack.
    expect((await client.post('/api/readings/natal-chart', forms['natal-chart'])).status).toBe(201);
    const withdrawn = transaction(`txn_${uid()}`, -1799, 1500, 'du_lost');
    await deliver(
      server,
      signed('charge.dispute.created', dispute(charge, 'needs_response', [withdrawn], 'du_lost')),
    );
    const lost = signed('charge.dispute.closed', dispute(charge, 'lost', [withdrawn], 'du_lost'));
    expect((await deliver(server, lost)).body.outcome).toBe('dispute lost: 86 credits taken back');
    expect(await eventsOf(server, id, 'DisputeClosed')).toMatchObject([
      { disputeId: 'du_lost', status: 'lost', won: false, amount: 86, shortfall: 14 },
    ]);
    expect((await me(client)).remainingCredits).toBe(0);
    // The withdrawal was booked when the dispute opened: losing it books no more money.
    expect((await balanceEvents()).at(-1)!.data).toMatchObject({ feesMinor: 0, disputesMinor: 0 });
    const month = await reported();
    expect(month.revenue).toContainEqual({ line: 'disputes', minor: expect.any(Number) });
    // A second delivery of the same close (another event id) changes nothing.
    const again = signed('charge.dispute.closed', dispute(charge, 'lost', [withdrawn], 'du_lost'));
    expect((await deliver(server, again)).body.outcome).toBe('dispute already recorded');
    expect(await eventsOf(server, id, 'DisputeClosed')).toHaveLength(1);
    await money();
  });

  it('books the money of a dispute of a charge that is not a pack of ours, holding no credit', async () => {
    const stranger = { id: `ch_${uid()}`, payment_intent: `pi_${uid()}`, amount: 500 };
    const withdrawn = transaction(`txn_${uid()}`, -500, 1500, 'du_stranger');
    const answer = await deliver(
      server,
      signed('charge.dispute.created', dispute(stranger, 'needs_response', [withdrawn])),
    );
    expect(answer.body.outcome).toBe('dispute recorded: not a charge of ours');
    expect((await balanceEvents()).at(-1)!.data).toMatchObject({
      feesMinor: 1500,
      disputesMinor: 500,
    });
    await money();
  });

  it('refuses a dispute that is not what Stripe sends, recording nothing on the balance', async () => {
    const { charge } = await packBuyer();
    const before = (await balanceEvents()).length;
    const bad = { ...dispute(charge, 'needs_response', []), amount: -5 };
    expect((await deliver(server, signed('charge.dispute.created', bad))).body.outcome).toBe(
      'refused: invalid data.object.amount',
    );
    const noCharge = { ...dispute(charge, 'needs_response', []), charge: null };
    expect((await deliver(server, signed('charge.dispute.created', noCharge))).body.outcome).toBe(
      'refused: invalid data.object.charge',
    );
    expect(await balanceEvents()).toHaveLength(before);
  });

  it('books a dispute transaction a payout lists once: the payout adds neither its money nor its fee', async () => {
    const { charge } = await packBuyer();
    const withdrawn = transaction(`txn_${uid()}`, -1799, 1500, 'du_paid_out');
    await deliver(
      server,
      signed(
        'charge.dispute.created',
        dispute(charge, 'needs_response', [withdrawn], 'du_paid_out'),
      ),
    );
    const before = await money();
    // The payout settles another charge and the dispute's withdrawal.
    const chargeTxn = { ...transaction(`txn_${uid()}`, 4999, 175, `ch_${uid()}`), type: 'charge' };
    payoutTransactions.set('po_disputed', [chargeTxn, withdrawn]);
    const payout = {
      id: 'po_disputed',
      object: 'payout',
      amount: 4999 - 175 - 1799 - 1500,
      currency: 'usd',
      arrival_date: Date.parse('2026-11-24T00:00:00Z') / 1000,
      status: 'paid',
    };
    expect((await deliver(server, signed('payout.paid', payout))).body.outcome).toBe('payout paid');
    expect((await balanceEvents()).at(-1)).toMatchObject({
      type: 'PayoutRecorded',
      data: { feesMinor: 175, paidOutMinor: 1525 },
    });
    expect((await balanceEvents()).at(-1)!.data.disputesMinor).toBeUndefined();
    expect(await money()).toMatchObject({
      feesToDate: before!.feesToDate + 175,
      disputesToDate: before!.disputesToDate,
    });
    // Tied to the bank: charges − fees ± disputes = what was paid out.
    const { body } = await admin.get('/api/admin/reports/payouts?month=2026-11');
    expect(body.payouts).toEqual([
      expect.objectContaining({
        payoutId: 'po_disputed',
        charges: 4999,
        fees: 1675,
        disputes: -1799,
        expected: 1525,
        difference: 0,
      }),
    ]);
  });
});
