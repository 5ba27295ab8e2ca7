/** Stripe disputes of a pack's payment: its credits held while open, taken back when lost. */
import type { CreditEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import { type CreditCommand, creditAccountDecider, fold, lotTotals } from '../src/index.ts';
import { free, given, opened, spend, spent } from './creditHistory.ts';

const pack = (amount: number, pi = 'pi_1'): CreditEvent => ({
  type: 'CreditsGranted',
  data: {
    grantId: `checkout:cs_${pi}`,
    kind: 'purchase',
    amount,
    reason: 'Explorer pack',
    tierId: 2,
    reference: { checkoutSessionId: `cs_${pi}`, paymentIntentId: pi },
  },
});
const disputed = { disputeId: 'du_1', chargeId: 'ch_1', paymentIntentId: 'pi_1', currency: 'usd' };
const reference = { disputeId: 'du_1', chargeId: 'ch_1', paymentIntentId: 'pi_1' };
const open = (amountMinor = 1799): CreditCommand => ({
  type: 'OpenDispute',
  ...disputed,
  amountMinor,
});
const close = (status: string, amountMinor = 1799): CreditCommand => ({
  type: 'CloseDispute',
  ...disputed,
  amountMinor,
  paidMinor: 1799,
  status,
});
const disputeOpened = (grantId: string | null = 'checkout:cs_pi_1', amountMinor = 1799) =>
  ({
    type: 'DisputeOpened',
    data: { disputeId: 'du_1', grantId, amountMinor, currency: 'usd', reference },
  }) satisfies CreditEvent;
const disputeClosed = (
  status: string,
  amount = 0,
  shortfall = 0,
  grantId: string | null = 'checkout:cs_pi_1',
) =>
  ({
    type: 'DisputeClosed',
    data: {
      disputeId: 'du_1',
      grantId,
      status,
      won: status === 'won',
      amount,
      shortfall,
      reference,
    },
  }) satisfies CreditEvent;

describe('a dispute of a pack’s payment (Stripe charge.dispute.*)', () => {
  it('holds the pack’s credits while open, once per dispute', () => {
    given([opened, pack(100)])
      .when(open())
      .then([disputeOpened()]);
    given([opened, pack(100), disputeOpened()])
      .when(open())
      .thenNothingHappens();
    // A payment that bought no pack of this account holds nothing.
    given([opened, free(10)])
      .when(open())
      .then([disputeOpened(null)]);
  });

  it('refuses a spend that needs held credits, saying how many are usable', () => {
    given([opened, free(10), pack(100), disputeOpened()])
      .when(spend(20))
      .thenThrows(
        'insufficient_credits',
        'You need 20 credits but can use 10: 100 are on hold while a payment of yours is disputed.',
        { required: 20, balance: 10, held: 100 },
      );
  });

  it('lets a spend pass over the held pack, naming the lots it took', () => {
    // The older pack is held: the spend takes free credits, then the newer pack.
    const history = [opened, free(10), pack(100), pack(40, 'pi_2'), disputeOpened()];
    const events = creditAccountDecider.decide(spend(30), fold(creditAccountDecider, history));
    expect(events).toEqual([
      {
        ...spent(30),
        data: {
          ...spent(30).data,
          lots: [
            { lot: 'free', source: 'free', amount: 10 },
            { lot: 'checkout:cs_pi_2', source: 'purchased', amount: 20 },
          ],
        },
      },
    ]);
    const after = fold(creditAccountDecider, [...history, ...events]);
    expect(after.lots.find((lot) => lot.id === 'checkout:cs_pi_1')?.remaining).toBe(100);
    expect(after.balance).toBe(120);
  });

  it('frees the credits when the dispute is won', () => {
    const history = [opened, pack(100), disputeOpened()];
    given(history)
      .when(close('won'))
      .then([disputeClosed('won')]);
    const after = fold(creditAccountDecider, [...history, disputeClosed('won')]);
    expect(creditAccountDecider.decide(spend(100), after)).toHaveLength(1);
    // Closed once: a redelivery changes nothing.
    given([...history, disputeClosed('won')])
      .when(close('lost'))
      .thenNothingHappens();
  });

  it('takes the credits back when lost, what was already spent of them the shortfall', () => {
    given([opened, pack(100), disputeOpened()])
      .when(close('lost'))
      .then([disputeClosed('lost', 100)]);
    // 80 of the pack were spent before the dispute (free credits go first).
    given([opened, free(10), pack(100), spent(90), disputeOpened()])
      .when(close('lost'))
      .then([disputeClosed('lost', 20, 80)]);
    const after = fold(creditAccountDecider, [
      opened,
      pack(100),
      disputeOpened(),
      disputeClosed('lost', 100),
    ]);
    expect(lotTotals(after.lots).purchased).toBe(0);
    expect(after.balance).toBe(0);
  });

  it('takes back a partial dispute’s share, never more than the refunds left', () => {
    // floor(100 × 539 / 1799) = 29 credits.
    given([opened, pack(100), disputeOpened('checkout:cs_pi_1', 539)])
      .when(close('lost', 539))
      .then([disputeClosed('lost', 29)]);
    // A refund took 90 back already: the dispute of the whole can take only the 10 left.
    const refunded: CreditEvent = {
      type: 'PurchaseReversed',
      data: {
        grantId: 'checkout:cs_pi_1',
        amount: 90,
        shortfall: 0,
        reference: { chargeId: 'ch_1', paymentIntentId: 'pi_1' },
        refund: {
          paymentIntentId: 'pi_1',
          chargeId: 'ch_1',
          refundedMinor: 1619,
          paidMinor: 1799,
          currency: 'usd',
        },
      },
    };
    given([opened, pack(100), refunded, disputeOpened()])
      .when(close('lost'))
      .then([disputeClosed('lost', 10)]);
  });

  it('opens a dispute whose opening never arrived before closing it', () => {
    given([opened, pack(100)])
      .when(close('lost'))
      .then([disputeOpened(), disputeClosed('lost', 100)]);
  });

  it('refuses a dispute of nothing or of more than was paid, and an unknown account', () => {
    given([opened, pack(100)])
      .when(open(0))
      .thenThrows('invalid_amount');
    given([opened, pack(100)])
      .when(close('lost', 1800))
      .thenThrows('invalid_amount');
    given([]).when(open()).thenThrows('user_not_found');
  });
});
