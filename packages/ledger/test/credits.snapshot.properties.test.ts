import type { CreditEvent } from '@astra/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  decodeCreditAccount,
  encodeCreditAccount,
  isDomainError,
  type StoredCreditAccount,
} from '../src/index.ts';
import { creditCommand, now, PAID } from './creditCommands.ts';

/**
 * A credit account's snapshot (what a cold command starts from) must give back the state that
 * replaying its events gives, so that every decision on it is the one a full replay would make.
 * Histories mix commands (decided and applied as the command handler applies them) with events
 * no command makes any more but old streams hold (a whole reversal without its refund, which
 * leaves an infinite refunded total) and with the few fields commands here do not reach.
 */
const payment = fc.integer({ min: 0, max: 4 }).map((n) => `pi_${n}`);
const rawEvent: fc.Arbitrary<CreditEvent> = fc.oneof(
  payment.map((pi) => ({
    type: 'PurchaseReversed' as const,
    data: { grantId: `checkout:${pi}`, amount: 0, shortfall: 0, reference: null },
  })),
  fc
    .record({ pi: payment, refundedMinor: fc.integer({ min: 0, max: PAID }) })
    .map(({ pi, refundedMinor }) => ({
      type: 'PurchaseRefundPending' as const,
      data: {
        paymentIntentId: pi,
        chargeId: 'ch',
        refundedMinor,
        paidMinor: PAID,
        currency: 'usd',
      },
    })),
  fc
    .record({ amount: fc.integer({ min: 1, max: 50 }), id: fc.integer({ min: 0, max: 3 }) })
    .map(({ amount, id }) => ({
      type: 'CreditsAdjusted' as const,
      data: { amount, reason: 'Correction', adminId: 'admin', adjustmentId: `adj-${id}` },
    })),
  fc.integer({ min: 0, max: 3 }).map((id) => ({
    type: 'CreditsGranted' as const,
    data: {
      grantId: `promo-${id}`,
      kind: 'promotional' as const,
      amount: 20,
      reason: 'Promotion',
      tierId: null,
      reference: null,
    },
  })),
  fc.constantFrom<CreditEvent>(
    {
      type: 'SubscriptionCheckoutStarted',
      data: { sessionId: 'cs_1', url: 'https://checkout/cs_1', tierId: 2, expiresAt: now.toJSON() },
    },
    { type: 'SubscriptionCheckoutClosed', data: { sessionId: 'cs_1', outcome: 'expired' } },
    { type: 'CreditAccountClosed', data: { reason: 'account_deleted' } },
  ),
);
const step = fc.oneof(
  { arbitrary: creditCommand.map((command) => ({ command })), weight: 4 },
  { arbitrary: rawEvent.map((event) => ({ event })), weight: 1 },
);

/** The account's events: commands decided on the state so far (refusals append nothing). */
const history = (steps: ({ command: CreditCommand } | { event: CreditEvent })[]) => {
  const events: CreditEvent[] = [{ type: 'CreditAccountOpened', data: { userId: 'u' } }];
  let state = creditAccountDecider.evolve(creditAccountDecider.initialState(), events[0]!);
  for (const s of steps) {
    let next: CreditEvent[] = [];
    if ('event' in s) next = [s.event];
    else
      try {
        next = creditAccountDecider.decide(s.command, state);
      } catch (error) {
        if (!isDomainError(error)) throw error;
      }
    for (const event of next) state = creditAccountDecider.evolve(state, event);
    events.push(...next);
  }
  return events;
};

const fold = (events: CreditEvent[]) =>
  events.reduce(creditAccountDecider.evolve, creditAccountDecider.initialState());

/**
 * What `jsonb` does to a JSON value: it comes back as text with every object's keys in its own
 * order (shorter keys first, then bytewise).
 */
const throughJsonb = (value: unknown): unknown => {
  const reorder = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(reorder);
    if (v === null || typeof v !== 'object') return v;
    const keys = Object.keys(v).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(keys.map((k) => [k, reorder((v as Record<string, unknown>)[k])]));
  };
  return JSON.parse(JSON.stringify(reorder(JSON.parse(JSON.stringify(value)))));
};

const snapshotOf = (state: CreditAccount) =>
  decodeCreditAccount(throughJsonb(encodeCreditAccount(state)) as StoredCreditAccount);

/** A decision as data: the events, or the refusal's code. */
const decision = (command: CreditCommand, state: CreditAccount) => {
  try {
    return { events: creditAccountDecider.decide(command, state) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { refused: error.code };
  }
};

/** An account that bought one pack (payment intent `pi_1`), and the whole refund of it. */
const PACK_BOUGHT: CreditEvent[] = [
  { type: 'CreditAccountOpened', data: { userId: 'u' } },
  {
    type: 'CreditsGranted',
    data: {
      grantId: 'checkout:pi_1',
      kind: 'purchase',
      amount: 100,
      reason: 'Credit pack',
      tierId: 2,
      reference: { paymentIntentId: 'pi_1' },
    },
  },
];
const REFUND_OF_PACK: CreditCommand = {
  type: 'RefundPurchase',
  paymentIntentId: 'pi_1',
  chargeId: 'ch',
  refundedMinor: PAID,
  paidMinor: PAID,
  currency: 'usd',
};

describe('credit account snapshots', () => {
  it('decode(encode(fold(events))) through jsonb is fold(events), records in their order', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const state = fold(history(steps));
        const restored = snapshotOf(state);
        // The purchases come back as a map read when first asked (`LazyMap`): compared as a map.
        expect({ ...restored, purchases: new Map(restored.purchases) }).toEqual(state);
        expect([...restored.purchases.keys()]).toEqual([...state.purchases.keys()]);
        for (const key of ['pendingRefunds', 'refundedMinor'] as const)
          expect(Object.keys(restored[key])).toEqual(Object.keys(state[key]));
      }),
      { numRuns: 300 },
    );
  });

  it('every next command is decided on a snapshot as on the full replay', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 60 }),
        fc.array(creditCommand, { minLength: 1, maxLength: 10 }),
        (steps, next) => {
          const events = history(steps);
          // A snapshot taken part way, then the rest of the history as a cold load reads it.
          const cut = Math.floor(events.length / 2);
          const fromSnapshot = events
            .slice(cut)
            .reduce(creditAccountDecider.evolve, snapshotOf(fold(events.slice(0, cut))));
          const replayed = fold(events);
          for (const command of next)
            expect(decision(command, fromSnapshot)).toEqual(decision(command, replayed));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the infinite refunded total of an old whole reversal: a later refund records nothing', () => {
    const given: CreditEvent[] = [
      ...PACK_BOUGHT,
      {
        type: 'PurchaseReversed',
        data: { grantId: 'checkout:pi_1', amount: 100, shortfall: 0, reference: null },
      },
    ];
    const restored = snapshotOf(fold(given));
    expect(restored.refundedMinor).toEqual({ pi_1: Number.POSITIVE_INFINITY });
    expect(decision(REFUND_OF_PACK, restored)).toEqual({ events: [] });
  });

  it('a spend on a snapshot never reads its purchases; a refund does', () => {
    const given = PACK_BOUGHT;
    const stored = throughJsonb(encodeCreditAccount(fold(given))) as StoredCreditAccount;
    // Purchases that cannot be read: only a command that reads them fails.
    const restored = decodeCreditAccount({ ...stored, purchases: 'not JSON' });
    const spend: CreditCommand = {
      type: 'SpendCredits',
      spendId: 's-1',
      amount: 5,
      purpose: 'reading',
      description: 'Tarot reading',
      appId: 3,
      readingId: null,
    };
    const spent = creditAccountDecider.decide(spend, restored);
    expect(spent).toMatchObject([{ type: 'CreditsSpent', data: { spendId: 's-1', amount: 5 } }]);
    const after = spent.reduce(creditAccountDecider.evolve, restored);
    expect(after.balance).toBe(95);
    expect(() => creditAccountDecider.decide(REFUND_OF_PACK, after)).toThrow(SyntaxError);
    expect(decision(REFUND_OF_PACK, snapshotOf(fold(given)))).toMatchObject({
      events: expect.arrayContaining([expect.objectContaining({ type: 'PurchaseReversed' })]),
    });
  });

  it('a grant id is granted once whatever the kinds, a reversed purchase too, on a snapshot as on the log', () => {
    const grant = (grantId: string, kind: 'purchase' | 'promotional'): CreditCommand => ({
      type: 'GrantCredits',
      grantId,
      kind,
      amount: 100,
      reason: kind === 'purchase' ? 'Credit pack' : 'Promotion',
      tierId: kind === 'purchase' ? 2 : null,
      reference: kind === 'purchase' ? { paymentIntentId: `pi_${grantId}` } : null,
      ...(kind === 'purchase' ? { payment: { amountMinor: PAID, currency: 'usd' } } : {}),
    });
    const events: CreditEvent[] = [{ type: 'CreditAccountOpened', data: { userId: 'u' } }];
    const apply = (command: CreditCommand) => {
      events.push(...creditAccountDecider.decide(command, fold(events)));
    };
    apply(grant('promo-then-pack', 'promotional'));
    apply(grant('pack-then-promo', 'purchase'));
    apply(grant('reversed', 'purchase'));
    apply({
      type: 'RefundPurchase',
      paymentIntentId: 'pi_reversed',
      chargeId: 'ch',
      refundedMinor: PAID,
      paidMinor: PAID,
      currency: 'usd',
    });
    expect(events.map((e) => e.type)).toContain('PurchaseReversed');
    const replayed = fold(events);
    for (const state of [replayed, snapshotOf(replayed)]) {
      expect(decision(grant('promo-then-pack', 'purchase'), state)).toEqual({ events: [] });
      expect(decision(grant('pack-then-promo', 'promotional'), state)).toEqual({ events: [] });
      expect(decision(grant('reversed', 'purchase'), state)).toEqual({ events: [] });
      expect(decision(grant('new', 'promotional'), state)).toMatchObject({
        events: [{ type: 'CreditsGranted' }],
      });
    }
  });
});
