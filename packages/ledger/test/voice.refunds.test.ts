/** A paid voice session's refund, owed only after its recorded failure, settled once. */
import { describe, expect, it } from 'vitest';
import {
  COST,
  delivered,
  ended,
  failed,
  firstActive,
  given,
  LENGTH,
  paidActive,
  paidRequested,
  settle,
  settled,
  voiceOf,
} from './voiceHistory.ts';

describe("voice guide: a paid session's refund, gated on its recorded failure", () => {
  const neverConnected = [...paidActive, ended('v2', 'connect_failed', 410, 10)];
  const failedPaid = [...paidRequested, failed('v2', 'provider_failed')];

  it('is owed after a paid session never connected', () => {
    expect(voiceOf(neverConnected)).toMatchObject({
      current: null,
      refundsOwed: [{ sessionId: 'v2', spendId: 'spend-v2', credits: COST }],
      reactivations: 1,
      creditsCharged: COST,
      countedSessions: 1,
    });
    given(neverConnected)
      .when(settle('v2', true))
      .then([settled('v2', true)]);
  });
  it('is owed after a paid session failed', () => {
    given(failedPaid)
      .when(settle('v2', true))
      .then([settled('v2', true)]);
    given(failedPaid)
      .when(settle('v2', false))
      .then([settled('v2', false)]);
  });
  it('settled, takes the reactivation out of the counts, given back or with nothing to give back', () => {
    // Nothing to give back: the spend never happened, or the account was closed (forfeited).
    for (const history of [neverConnected, failedPaid]) {
      for (const refunded of [true, false]) {
        expect(voiceOf([...history, settled('v2', refunded)])).toMatchObject({
          refundsOwed: [],
          reactivations: 0,
          creditsCharged: 0,
        });
      }
    }
  });
  it('is settled once', () => {
    given([...neverConnected, settled('v2', true)])
      .when(settle('v2', true))
      .thenNothingHappens();
    given([...failedPaid, settled('v2', false)])
      .when(settle('v2', true))
      .thenNothingHappens();
  });
  it('is owed for nothing else', () => {
    // The included session, even when it never connected.
    given([...firstActive, ended('v1', 'connect_failed', 5, 5)])
      .when(settle('v1', true))
      .thenNothingHappens();
    // A paid session that was used: running, ended early, left, or out of time.
    given(paidActive).when(settle('v2', true)).thenNothingHappens();
    given(paidRequested).when(settle('v2', true)).thenNothingHappens();
    for (const reason of ['ended_early', 'left', 'time_up'] as const) {
      given([...paidActive, ended('v2', reason, 700, LENGTH)])
        .when(settle('v2', true))
        .thenNothingHappens();
    }
    // A paid session whose spend was refused: nothing was spent.
    given([...paidRequested, failed('v2', 'spend_refused')])
      .when(settle('v2', true))
      .thenNothingHappens();
    given(delivered).when(settle('v9', true)).thenNothingHappens();
  });
});
