/** Stripe refunds of a pack or a plan's month, taken back from the credits. */
import type { CreditEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
  balanceChange,
  type CreditCommand,
  creditAccountDecider,
  fold,
  lotTotals,
} from '../src/index.ts';
import {
  activated,
  free,
  type GrantCommand,
  given,
  month,
  opened,
  spent,
} from './creditHistory.ts';

describe('purchase refund (Stripe charge.refunded)', () => {
  const pack = (amount: number, pi = 'pi_1', grantId = `checkout:cs_${pi}`): CreditEvent => ({
    type: 'CreditsGranted',
    data: {
      grantId,
      kind: 'purchase',
      amount,
      reason: 'Explorer pack',
      tierId: 2,
      reference: { checkoutSessionId: `cs_${pi}`, paymentIntentId: pi },
    },
  });
  const refund = (refundedMinor: number, pi = 'pi_1'): CreditCommand => ({
    type: 'RefundPurchase',
    paymentIntentId: pi,
    chargeId: 'ch_1',
    refundedMinor,
    paidMinor: 1799,
    currency: 'usd',
  });
  const stripeRefund = (refundedMinor: number, pi = 'pi_1') => ({
    paymentIntentId: pi,
    chargeId: 'ch_1',
    refundedMinor,
    paidMinor: 1799,
    currency: 'usd',
  });
  /** The money of a refund: what the refunded total grew by, and the total. */
  const paid = (amountMinor: number, refundedMinor: number, pi = 'pi_1'): CreditEvent => ({
    type: 'PaymentRefunded',
    data: { paymentIntentId: pi, chargeId: 'ch_1', amountMinor, refundedMinor, currency: 'usd' },
  });
  const reversed = (amount: number, shortfall: number, refundedMinor: number): CreditEvent => ({
    type: 'PurchaseReversed',
    data: {
      grantId: 'checkout:cs_pi_1',
      amount,
      shortfall,
      reference: { chargeId: 'ch_1', paymentIntentId: 'pi_1' },
      refund: stripeRefund(refundedMinor),
    },
  });

  it('takes back the whole purchase when it is unspent', () => {
    given([opened, pack(100)])
      .when(refund(1799))
      .then([paid(1799, 1799), reversed(100, 0, 1799)]);
  });
  it('takes back only what remains of that purchase: what was spent of it is the shortfall', () => {
    // Free credits go first, so 80 of the 100 purchased were spent.
    given([opened, free(10), pack(100), spent(90)])
      .when(refund(1799))
      .then([paid(1799, 1799), reversed(20, 80, 1799)]);
  });
  it('never touches other credits: another pack and free credits stay', () => {
    const history = [opened, free(10), pack(100), pack(40, 'pi_2'), spent(50)];
    const events = creditAccountDecider.decide(refund(1799), fold(creditAccountDecider, history));
    const after = fold(creditAccountDecider, [...history, ...events]);
    // Spent: 10 free, then 40 of the older pack; the refund takes its 60 left, pack 2 stays.
    expect(events).toEqual([paid(1799, 1799), reversed(60, 40, 1799)]);
    expect(lotTotals(after.lots)).toMatchObject({ free: 0, purchased: 40 });
  });
  it('reverses partial refunds in proportion, rounded down, and a repeat changes nothing', () => {
    // 30% of 17.99 is 5.39 (539): floor(100 × 539 / 1799) = 29 credits.
    given([opened, pack(100)])
      .when(refund(539))
      .then([paid(539, 539), reversed(29, 0, 539)]);
    given([opened, pack(100), paid(539, 539), reversed(29, 0, 539)])
      .when(refund(539))
      .thenNothingHappens();
    // The rest refunded: the total is the whole purchase, 71 more, and 12.60 more money.
    given([opened, pack(100), paid(539, 539), reversed(29, 0, 539)])
      .when(refund(1799))
      .then([paid(1260, 1799), reversed(71, 0, 1799)]);
    given([
      opened,
      pack(100),
      paid(539, 539),
      reversed(29, 0, 539),
      paid(1260, 1799),
      reversed(71, 0, 1799),
    ])
      .when(refund(1799))
      .thenNothingHappens();
    // A late event with a smaller total (Stripe keeps no order) records nothing.
    given([opened, pack(100), paid(1799, 1799), reversed(100, 0, 1799)])
      .when(refund(539))
      .thenNothingHappens();
  });
  it('records the money of a refund too small to take back a credit', () => {
    // floor(100 × 10 / 1799) = 0 credits: no reversal, but 0.10 went back to the buyer.
    given([opened, pack(100)])
      .when(refund(10))
      .then([paid(10, 10)]);
    given([opened, pack(100), paid(10, 10)])
      .when(refund(10))
      .thenNothingHappens();
    given([opened, pack(100), paid(10, 10)])
      .when(refund(539))
      .then([paid(529, 539), reversed(29, 0, 539)]);
  });
  it('counts refunds recorded before PaymentRefunded existed as recorded', () => {
    // An old reversal names its refund: its redelivery records no money a second time.
    given([opened, pack(100), reversed(29, 0, 539)])
      .when(refund(539))
      .thenNothingHappens();
    given([opened, pack(100), reversed(29, 0, 539)])
      .when(refund(1799))
      .then([paid(1260, 1799), reversed(71, 0, 1799)]);
    given([opened, { type: 'PurchaseRefundPending', data: stripeRefund(1799) }])
      .when(refund(1799))
      .thenNothingHappens();
  });
  it('has no effect on the balance', () => {
    expect(balanceChange(paid(1799, 1799))).toBe(0);
    const state = fold(creditAccountDecider, [opened, free(10), paid(1799, 1799)]);
    expect(state.balance).toBe(10);
    expect(state.refundedMinor).toEqual({ pi_1: 1799 });
  });
  it('remembers a refund that comes before its purchase, and applies it when the purchase lands', () => {
    given([opened])
      .when(refund(1799))
      .then([paid(1799, 1799), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }]);
    given([opened, paid(1799, 1799), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }])
      .when(refund(1799))
      .thenNothingHappens();
    // More refunded before the purchase lands: the new money, and the larger refund to apply.
    given([opened, paid(300, 300), { type: 'PurchaseRefundPending', data: stripeRefund(300) }])
      .when(refund(1799))
      .then([paid(1499, 1799), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }]);
    const grant = pack(100);
    given([opened, free(10), { type: 'PurchaseRefundPending', data: stripeRefund(1799) }])
      .when({ ...(grant.data as Omit<GrantCommand, 'type'>), type: 'GrantCredits' })
      .then([grant, reversed(100, 0, 1799)]);
  });
  it('refuses refunds that are not a part of what was paid', () => {
    for (const refundedMinor of [-1, 1800, 2.5])
      given([opened, pack(100)])
        .when(refund(refundedMinor))
        .thenThrows('invalid_amount');
  });
  it('replays an old whole reversal (before lots) as taking back the whole purchase', () => {
    const old: CreditEvent = {
      type: 'PurchaseReversed',
      data: { grantId: 'checkout:cs_pi_1', amount: 30, shortfall: 70, reference: null },
    };
    const state = fold(creditAccountDecider, [opened, free(50), pack(100), spent(120), old]);
    expect(state.balance).toBe(0);
    given([opened, free(50), pack(100), spent(120), old])
      .when(refund(1799))
      .thenNothingHappens();
  });
});

describe('subscription payment refund (Stripe charge.refunded of an invoice)', () => {
  /** Stripe's refund of the invoice that paid Starter's November for `sub_1`. */
  const refund = (
    refundedMinor: number,
    { period = '2026-11', subscriptionId = 'sub_1', invoiceId = 'in_1' } = {},
  ): CreditCommand => ({
    type: 'RecordPaymentRefund',
    paymentIntentId: 'pi_inv_1',
    chargeId: 'ch_inv_1',
    refundedMinor,
    paidMinor: 999,
    currency: 'usd',
    invoiceId,
    subscriptionId,
    period,
  });
  const refunded = (amountMinor: number, refundedMinor: number): CreditEvent => ({
    type: 'PaymentRefunded',
    data: {
      paymentIntentId: 'pi_inv_1',
      chargeId: 'ch_inv_1',
      amountMinor,
      refundedMinor,
      currency: 'usd',
      invoiceId: 'in_1',
      subscriptionId: 'sub_1',
    },
  });
  const paidMonth = [opened, free(10), activated(), month('2026-11')];

  it('records the first refund of a paid month, and keeps its credits', () => {
    given(paidMonth)
      .when(refund(999))
      .then([refunded(999, 999)]);
    const after = fold(creditAccountDecider, [...paidMonth, refunded(999, 999)]);
    expect(after.balance).toBe(70);
    expect(lotTotals(after.lots)).toMatchObject({ subscription: 60, free: 10 });
    expect(after.refundedMinor).toEqual({ pi_inv_1: 999 });
  });
  it('records a partial refund, then only the new money of a larger one', () => {
    given(paidMonth)
      .when(refund(300))
      .then([refunded(300, 300)]);
    given([...paidMonth, refunded(300, 300)])
      .when(refund(999))
      .then([refunded(699, 999)]);
  });
  it('records nothing for a redelivery, or a late event with a smaller total', () => {
    given([...paidMonth, refunded(300, 300)])
      .when(refund(300))
      .thenNothingHappens();
    given([...paidMonth, refunded(300, 300), refunded(699, 999)])
      .when(refund(999))
      .thenNothingHappens();
    given([...paidMonth, refunded(999, 999)])
      .when(refund(300))
      .thenNothingHappens();
  });
  it('refuses the refund of a payment this account was never credited for', () => {
    // A month not granted here (an invoice we refused and gave back), another subscription's
    // month, an account without a subscription month at all.
    given(paidMonth)
      .when(refund(999, { period: '2026-12', invoiceId: 'in_2' }))
      .thenThrows(
        'unknown_payment',
        'No month of this account was paid by invoice in_2 (2026-12)',
        {
          invoiceId: 'in_2',
          period: '2026-12',
        },
      );
    given(paidMonth)
      .when(refund(999, { subscriptionId: 'sub_2' }))
      .thenThrows('unknown_payment');
    given([opened, free(10)])
      .when(refund(999))
      .thenThrows('unknown_payment');
    given([]).when(refund(999)).thenThrows('user_not_found');
  });
  it('records the money on a closed account too: it went back whatever became of the credits', () => {
    const closed: CreditEvent[] = [
      { type: 'SubscriptionEnded', data: { reason: 'account_deleted' } },
      { type: 'CreditsForfeited', data: { amount: 70, reason: 'account_deleted' } },
      { type: 'CreditAccountClosed', data: { reason: 'account_deleted' } },
    ];
    given([...paidMonth, ...closed])
      .when(refund(999))
      .then([refunded(999, 999)]);
  });
  it('refuses refunds that are not a part of what was paid', () => {
    for (const refundedMinor of [-1, 1000, 2.5])
      given(paidMonth).when(refund(refundedMinor)).thenThrows('invalid_amount');
  });
});
