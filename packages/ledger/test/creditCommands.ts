import fc from 'fast-check';
import type { CreditCommand, Tier } from '../src/index.ts';

/**
 * Random credit commands: purchases, subscriptions, renewals, spends, refunds and partial
 * refunds, disputes, on few payment intents, subscriptions and spend ids so that they meet each other.
 */
export const tiers: Tier[] = [
  { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 },
  { tierId: 2, tierName: 'Explorer', creditsPerMonth: 120 },
];
export const PAID = 1799;
export const now = new Date('2026-11-21T10:00:00Z');

const payment = fc.integer({ min: 0, max: 4 }).map((n) => `pi_${n}`);
export const creditCommand: fc.Arbitrary<CreditCommand> = fc.oneof(
  fc
    .record({
      type: fc.constant('GrantCredits' as const),
      grantId: payment.map((pi) => `checkout:${pi}`),
      kind: fc.constant('purchase' as const),
      amount: fc.constantFrom(40, 100, 320),
      reason: fc.constant('Credit pack'),
      tierId: fc.constant(2),
      reference: fc.constant(null),
      // Some with their payment and its tax (the state keeps it for the refunds' share).
      taxed: fc.boolean(),
    })
    .map(({ taxed, ...c }) => ({
      ...c,
      reference: { paymentIntentId: c.grantId.slice('checkout:'.length) },
      ...(taxed
        ? {
            payment: {
              amountMinor: PAID,
              currency: 'usd',
              tax: { amountMinor: 312, country: 'NL', ratePercent: 21 },
            },
          }
        : {}),
    })),
  fc.record({
    type: fc.constant('RefundPurchase' as const),
    paymentIntentId: payment,
    chargeId: fc.constant('ch'),
    refundedMinor: fc.integer({ min: 0, max: PAID }),
    paidMinor: fc.constant(PAID),
    currency: fc.constant('usd'),
  }),
  // Disputes of a payment: opened (its pack's credits held), won or lost (taken back).
  fc
    .record({
      paymentIntentId: payment,
      dispute: fc.integer({ min: 0, max: 2 }),
      amountMinor: fc.integer({ min: 1, max: PAID }),
      status: fc.constantFrom('needs_response', 'won', 'lost'),
    })
    .map(({ dispute, status, ...disputed }): CreditCommand => {
      const common = { ...disputed, disputeId: `du_${dispute}`, chargeId: 'ch', currency: 'usd' };
      return status === 'needs_response'
        ? { type: 'OpenDispute', ...common }
        : { type: 'CloseDispute', ...common, status, paidMinor: PAID };
    }),
  fc.record({
    type: fc.constant('ActivateSubscription' as const),
    tier: fc.constantFrom(...tiers),
    subscriptionId: fc.constantFrom('sub_1', 'sub_2'),
    now: fc.constant(now),
  }),
  fc.record({
    type: fc.constant('GrantMonthlyCredits' as const),
    tier: fc.constantFrom(...tiers),
    period: fc.integer({ min: 1, max: 12 }).map((m) => `2026-${String(m).padStart(2, '0')}`),
    trigger: fc.constant('renewal' as const),
    reference: fc.constant(null),
    now: fc.constant(now),
  }),
  fc.record({ type: fc.constant('ChangePlan' as const), tier: fc.constantFrom(...tiers) }),
  fc.constantFrom<CreditCommand>(
    { type: 'CancelSubscription', reason: 'user_requested' },
    { type: 'EndSubscription', reason: 'stripe' },
    { type: 'GrantFreeAllotment', amount: 10 },
  ),
  fc.record({
    type: fc.constant('SpendCredits' as const),
    spendId: fc.integer({ min: 0, max: 30 }).map((n) => `s${n}`),
    amount: fc.integer({ min: 1, max: 60 }),
    purpose: fc.constant('reading' as const),
    description: fc.constant('Reading'),
    appId: fc.constant(null),
    readingId: fc.constant(null),
  }),
  fc.record({
    type: fc.constant('RefundSpend' as const),
    spendId: fc.integer({ min: 0, max: 30 }).map((n) => `s${n}`),
    reason: fc.constant('generation_failed'),
  }),
  fc.record({
    type: fc.constant('AdjustCredits' as const),
    amount: fc.integer({ min: -50, max: 50 }).filter((n) => n !== 0),
    reason: fc.constant('Correction'),
    adminId: fc.constant('admin'),
  }),
);
