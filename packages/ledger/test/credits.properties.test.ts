import type { CreditEvent } from '@astra/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  balanceChange,
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  isDomainError,
  lotsBalance,
  lotTotals,
} from '../src/index.ts';
import { creditCommand, PAID } from './creditCommands.ts';

/**
 * Random histories of purchases, subscriptions, renewals, spends, refunds and partial refunds,
 * run through the credit decider as the command handler runs them (refused commands append
 * nothing). After every step the money rules must hold.
 */

/** Runs the commands like the command handler: decide, append, evolve; refusals change nothing. */
const run = (commands: CreditCommand[]) => {
  let state = creditAccountDecider.evolve(creditAccountDecider.initialState(), {
    type: 'CreditAccountOpened',
    data: { userId: 'u' },
  });
  const steps: { command: CreditCommand; before: CreditAccount; events: CreditEvent[] }[] = [];
  for (const c of commands) {
    let events: CreditEvent[] = [];
    try {
      events = creditAccountDecider.decide(c, state);
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
    const before = state;
    for (const event of events) {
      const previous = state;
      state = creditAccountDecider.evolve(state, event);
      checkEvent(previous, state, event);
    }
    steps.push({ command: c, before, events });
  }
  return { state, steps };
};

const checkEvent = (before: CreditAccount, after: CreditAccount, event: CreditEvent) => {
  expect(after.balance).toBeGreaterThanOrEqual(0);
  expect(after.balance).toBe(before.balance + balanceChange(event));
  expect(lotsBalance(after.lots)).toBe(after.balance);
  for (const lot of after.lots) expect(lot.remaining).toBeGreaterThan(0);
  if (event.type === 'RolloverForfeited') {
    // Only subscription credits expire: purchased, free and promotional stay whole.
    const [was, is] = [lotTotals(before.lots), lotTotals(after.lots)];
    expect({ ...is, subscription: 0 }).toEqual({ ...was, subscription: 0 });
  }
};

describe('credit ledger properties over random histories', () => {
  it('never goes below zero, never forfeits purchased credits, keeps lots and balance equal', () => {
    fc.assert(
      fc.property(fc.array(creditCommand, { maxLength: 60 }), (commands) => {
        run(commands);
      }),
      { numRuns: 500 },
    );
  });

  it('reverses at most what a purchase granted, in proportion to the money refunded and lost in disputes', () => {
    fc.assert(
      fc.property(fc.array(creditCommand, { maxLength: 60 }), (commands) => {
        const { state, steps } = run(commands);
        const highestRefund = new Map<string, number>();
        for (const c of commands)
          if (c.type === 'RefundPurchase')
            highestRefund.set(
              c.paymentIntentId,
              Math.max(highestRefund.get(c.paymentIntentId) ?? 0, c.refundedMinor),
            );
        const share = (granted: number, minor: number) => Math.floor((granted * minor) / PAID);
        for (const purchase of state.purchases.values()) {
          let byRefunds = 0;
          let byDisputes = 0;
          let disputeShares = 0;
          for (const { command, events } of steps)
            for (const e of events) {
              if (e.type === 'PurchaseReversed' && e.data.grantId === purchase.grantId)
                byRefunds += e.data.amount + e.data.shortfall;
              if (
                e.type === 'DisputeClosed' &&
                !e.data.won &&
                e.data.grantId === purchase.grantId
              ) {
                // The money lost is the amount of the closing that took the credits back (a
                // dispute id reused later with another amount must not change it).
                const lost = command.type === 'CloseDispute' ? command.amountMinor : 0;
                byDisputes += e.data.amount + e.data.shortfall;
                disputeShares += share(purchase.granted, lost);
              }
            }
          const refunded = highestRefund.get(purchase.paymentIntentId ?? '') ?? 0;
          expect(byRefunds + byDisputes).toBeLessThanOrEqual(purchase.granted);
          // Exactly its share of the money refunded and lost, whatever the order: every refund
          // and every lost dispute of the payment applied, together capped at what it granted.
          expect(byRefunds + byDisputes).toBe(
            Math.min(share(purchase.granted, refunded) + disputeShares, purchase.granted),
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it("records each payment's refunded money once: the PaymentRefunded amounts sum to its highest refund", () => {
    fc.assert(
      fc.property(fc.array(creditCommand, { maxLength: 60 }), (commands) => {
        const { steps } = run(commands);
        const highest = new Map<string, number>();
        const recorded = new Map<string, number>();
        for (const { command: c, events } of steps) {
          // Refused refunds (a closed account, a bad amount) record nothing.
          if (c.type === 'RefundPurchase' && c.refundedMinor > 0 && events.length > 0)
            highest.set(
              c.paymentIntentId,
              Math.max(highest.get(c.paymentIntentId) ?? 0, c.refundedMinor),
            );
          for (const e of events) {
            if (e.type !== 'PaymentRefunded') continue;
            expect(e.data.amountMinor).toBeGreaterThan(0);
            recorded.set(
              e.data.paymentIntentId,
              (recorded.get(e.data.paymentIntentId) ?? 0) + e.data.amountMinor,
            );
          }
          // The money comes before any credit moves.
          const money = events.findIndex((e) => e.type === 'PaymentRefunded');
          if (money > 0) expect(c.type).toBe('RefundPurchase');
          if (money >= 0) expect(money).toBe(0);
        }
        expect(recorded).toEqual(highest);
      }),
      { numRuns: 500 },
    );
  });

  it('a Stripe refund delivered again changes nothing', () => {
    fc.assert(
      fc.property(fc.array(creditCommand, { maxLength: 40 }), (commands) => {
        const { state, steps } = run(commands);
        const last = steps.findLast((s) => s.command.type === 'RefundPurchase');
        if (!last) return;
        let again: CreditEvent[] = [];
        try {
          again = creditAccountDecider.decide(last.command, state);
        } catch (error) {
          if (!isDomainError(error)) throw error;
        }
        expect(again).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
