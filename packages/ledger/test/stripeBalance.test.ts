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
const payout = (
  eventId: string,
  status: 'paid' | 'failed',
  transactions: BalanceTransaction[],
): StripeBalanceCommand => ({
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
  { type: _type, ...command }: StripeBalanceCommand,
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
