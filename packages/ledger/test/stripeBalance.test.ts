import type { BalanceTransaction, StripeBalanceEvent } from '@astra/contracts';
import { describe, it } from 'vitest';
import { type StripeBalanceCommand, stripeBalanceDecider } from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

const given = deciderSpecification(stripeBalanceDecider);
const charge = (id: string, feeMinor: number): BalanceTransaction => ({
  id,
  type: 'charge',
  currency: 'eur',
  amountMinor: 1000,
  feeMinor,
  netMinor: 1000 - feeMinor,
  sourceId: `ch_${id}`,
});
type PayoutCommand = Extract<StripeBalanceCommand, { type: 'RecordPayout' }>;
const payout = (
  eventId: string,
  status: 'paid' | 'failed',
  transactions: BalanceTransaction[],
): PayoutCommand => ({
  type: 'RecordPayout',
  eventId,
  payout: {
    id: 'po_1',
    amountMinor: 1900,
    currency: 'eur',
    arrivalDate: '2026-11-24T00:00:00.000Z',
    status,
  },
  transactions,
});
const recorded = (
  { type: _type, ...command }: PayoutCommand,
  feesMinor: number,
  paidOutMinor: number,
): StripeBalanceEvent => ({
  type: 'PayoutRecorded',
  data: { ...command, feesMinor, paidOutMinor },
});

describe("Stripe's balance", () => {
  const paid = payout('evt_paid', 'paid', [charge('txn_1', 40), charge('txn_2', 60)]);
  const paidEvent = recorded(paid, 100, 1900);

  it('books a paid payout’s fees and amount, once per Stripe event', () => {
    given([]).when(paid).then([paidEvent]);
    given([paidEvent]).when(paid).thenNothingHappens();
  });

  it('gives a paid payout that fails its amount back, its fees booked already', () => {
    const failed = payout('evt_failed', 'failed', [charge('txn_1', 40), charge('txn_2', 60)]);
    given([paidEvent])
      .when(failed)
      .then([recorded(failed, 0, -1900)]);
  });

  it('moves nothing for a payout that fails unpaid, but books the fees of its transactions', () => {
    const failed = payout('evt_failed', 'failed', [charge('txn_3', 25)]);
    given([])
      .when(failed)
      .then([recorded(failed, 25, 0)]);
  });

  it('books only the fees of transactions no earlier payout listed', () => {
    const again = payout('evt_other', 'paid', [charge('txn_2', 60), charge('txn_4', 7)]);
    const other = { ...again, payout: { ...again.payout, id: 'po_2' } };
    given([paidEvent])
      .when(other)
      .then([recorded(other, 7, 1900)]);
  });
});

describe("Stripe's balance: disputes", () => {
  const txn = (id: string, type: string, amountMinor: number, feeMinor: number) => ({
    id,
    type,
    currency: 'eur',
    amountMinor,
    feeMinor,
    netMinor: amountMinor - feeMinor,
    sourceId: 'du_1',
  });
  const withdrawn = txn('txn_w', 'adjustment', -1000, 1500);
  const returned = txn('txn_r', 'adjustment', 1000, 0);
  const dispute = (
    eventId: string,
    status: string,
    transactions: BalanceTransaction[],
  ): StripeBalanceCommand => ({
    type: 'RecordDispute',
    eventId,
    dispute: { id: 'du_1', chargeId: 'ch_1', amountMinor: 1000, currency: 'eur', status },
    transactions,
  });
  const disputeRecorded = (
    command: StripeBalanceCommand,
    feesMinor: number,
    disputesMinor: number,
  ): StripeBalanceEvent => {
    const { type: _type, ...data } = command as Extract<
      StripeBalanceCommand,
      { type: 'RecordDispute' }
    >;
    return { type: 'DisputeRecorded', data: { ...data, feesMinor, disputesMinor } };
  };
  const opened = dispute('evt_opened', 'needs_response', [withdrawn]);
  const openedEvent = disputeRecorded(opened, 1500, 1000);

  it('books the money a dispute withdrew and its fee, once per Stripe event', () => {
    given([]).when(opened).then([openedEvent]);
    given([openedEvent]).when(opened).thenNothingHappens();
  });

  it('gives a won dispute’s money back, its withdrawal and fee booked already', () => {
    const won = dispute('evt_won', 'won', [withdrawn, returned]);
    given([openedEvent])
      .when(won)
      .then([disputeRecorded(won, 0, -1000)]);
  });

  it('books nothing more for a lost dispute: the money stays withdrawn', () => {
    const lost = dispute('evt_lost', 'lost', [withdrawn]);
    given([openedEvent])
      .when(lost)
      .then([disputeRecorded(lost, 0, 0)]);
  });

  it('books a dispute transaction once, whether the dispute or a payout lists it first', () => {
    const listing = payout('evt_payout', 'paid', [charge('txn_1', 40), withdrawn]);
    const { type: _type, ...data } = listing;
    const payoutFirst: StripeBalanceEvent = {
      type: 'PayoutRecorded',
      data: { ...data, feesMinor: 1540, paidOutMinor: 1900, disputesMinor: 1000 },
    };
    given([]).when(listing).then([payoutFirst]);
    given([payoutFirst])
      .when(opened)
      .then([disputeRecorded(opened, 0, 0)]);
    given([openedEvent])
      .when(listing)
      .then([recorded(listing, 40, 1900)]);
  });

  it('books no money of an adjustment that is not a dispute’s, only its fee', () => {
    const other = { ...txn('txn_adj', 'adjustment', -300, 5), sourceId: null };
    const listing = payout('evt_payout', 'paid', [other]);
    given([])
      .when(listing)
      .then([recorded(listing, 5, 1900)]);
  });
});
