import type { ReadingEvent, VoiceEndReason, VoiceFailureReason } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import {
  fold,
  type ReadingCommand,
  readingDecider,
  VOICE_CONNECT_GRACE_SECONDS,
  VOICE_TIME_UP_TOLERANCE_SECONDS,
} from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

/**
 * The voice guide of a delivered reading: one session slot, the first session included in the
 * reading's price, later ones paid reactivations, the server's clock ending them, and the refund
 * of a paid session that never started (or never connected) gated on its recorded failure.
 */
const given = deciderSpecification(readingDecider);

const LENGTH = 300;
const COST = 2;
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
/** The clock `s` seconds after T0. */
const at = (s: number) => new Date(T0 + s * 1000);
const iso = (s: number) => at(s).toISOString();

const readingRequested: ReadingEvent = {
  type: 'ReadingRequested',
  data: {
    readingId: 'r1',
    userId: 'u1',
    appId: 3,
    appName: 'Tarot Traditional',
    input: { firstName: 'Ada', question: 'Why?' },
    firstName: 'Ada',
    question: 'Why?',
    creditsCharged: 4,
    spendId: 's1',
  },
};
const generated: ReadingEvent = {
  type: 'ReadingGenerated',
  data: { result: { readingText: 'x' }, writer: 'offline' },
};
const delivered = [readingRequested, generated];

// Events
const requested = (sessionId: string, reactivation = false, cost = COST): ReadingEvent => ({
  type: 'VoiceSessionRequested',
  data: {
    sessionId,
    reactivation,
    spendId: reactivation ? `spend-${sessionId}` : null,
    creditsCharged: reactivation ? cost : 0,
  },
});
const started = (sessionId: string, from = 0, length = LENGTH): ReadingEvent => ({
  type: 'VoiceSessionStarted',
  data: { sessionId, provider: 'offline', startedAt: iso(from), endsAt: iso(from + length) },
});
const failed = (sessionId: string, reason: VoiceFailureReason): ReadingEvent => ({
  type: 'VoiceSessionFailed',
  data: { sessionId, reason },
});
const ended = (
  sessionId: string,
  reason: VoiceEndReason,
  endedAt: number,
  secondsUsed: number,
): ReadingEvent => ({
  type: 'VoiceSessionEnded',
  data: { sessionId, reason, endedAt: iso(endedAt), secondsUsed },
});
const settled = (sessionId: string, refunded: boolean): ReadingEvent => ({
  type: 'VoiceRefundSettled',
  data: { sessionId, spendId: `spend-${sessionId}`, refunded },
});

// Commands
const request = (
  sessionId: string,
  now = 0,
  userId = 'u1',
  reactivationCost = COST,
): ReadingCommand => ({
  type: 'RequestVoiceSession',
  userId,
  sessionId,
  spendId: `spend-${sessionId}`,
  reactivationCost,
  now: at(now),
});
const start = (sessionId: string, now = 0, seconds = LENGTH): ReadingCommand => ({
  type: 'StartVoiceSession',
  sessionId,
  provider: 'offline',
  seconds,
  now: at(now),
});
const fail = (sessionId: string, reason: VoiceFailureReason): ReadingCommand => ({
  type: 'FailVoiceSession',
  sessionId,
  reason,
});
const end = (
  sessionId: string,
  reason: VoiceEndReason,
  now: number,
  userId: string | undefined = 'u1',
): ReadingCommand =>
  userId === undefined
    ? { type: 'EndVoiceSession', sessionId, reason, now: at(now) }
    : { type: 'EndVoiceSession', sessionId, reason, now: at(now), userId };
const expire = (now: number): ReadingCommand => ({ type: 'ExpireVoiceSession', now: at(now) });
const settle = (sessionId: string, refunded: boolean): ReadingCommand => ({
  type: 'SettleVoiceRefund',
  sessionId,
  refunded,
});

const voiceOf = (events: ReadingEvent[]) => fold(readingDecider, events).voice;

// Histories
/** The included session v1, running from 0 to 300. */
const firstActive = [...delivered, requested('v1'), started('v1', 0)];
/** The included session used up (time up at 300). */
const firstUsed = [...firstActive, ended('v1', 'time_up', LENGTH, LENGTH)];
/** A paid reactivation v2, requested (its charge in flight). */
const paidRequested = [...firstUsed, requested('v2', true)];
/** The paid reactivation v2, running from 400 to 700. */
const paidActive = [...paidRequested, started('v2', 400)];

describe('voice guide: who may talk to it', () => {
  it('is the owner of a delivered reading', () => {
    given(delivered)
      .when(request('v1'))
      .then([requested('v1')]);
  });
  it("is no one else: someone else's, an undelivered, a failed or a deleted reading is not found", () => {
    given(delivered)
      .when(request('v1', 0, 'u2'))
      .thenThrows('reading_not_found', 'Reading Not Found');
    given([]).when(request('v1')).thenThrows('reading_not_found');
    given([readingRequested]).when(request('v1')).thenThrows('reading_not_found');
    given([
      readingRequested,
      { type: 'ReadingFailed', data: { reason: 'generation_failed', refunded: false } },
    ])
      .when(request('v1'))
      .thenThrows('reading_not_found');
    given([...delivered, { type: 'ReadingDeleted', data: {} }])
      .when(request('v1'))
      .thenThrows('reading_not_found');
    // Not even with a session of theirs: someone else never learns of it.
    given(firstUsed)
      .when(request('v2', 400, 'u2'))
      .thenThrows('reading_not_found');
  });
});

describe('voice guide: the first session is included, later ones are reactivations', () => {
  it('includes the first session: no reactivation, no spend, nothing charged', () => {
    given(delivered)
      .when(request('v1', 0, 'u1', 7))
      .then([
        {
          type: 'VoiceSessionRequested',
          data: { sessionId: 'v1', reactivation: false, spendId: null, creditsCharged: 0 },
        },
      ]);
  });
  it('charges a reactivation, with the command spend and cost, once a session started', () => {
    // Running out of time, or ended early: it started, so it counts.
    for (const history of [
      firstUsed,
      [...firstActive, ended('v1', 'ended_early', 100, 100)],
      [...firstActive, ended('v1', 'left', 60, 60)],
    ]) {
      given(history)
        .when(request('v2', 400, 'u1', 3))
        .then([
          {
            type: 'VoiceSessionRequested',
            data: { sessionId: 'v2', reactivation: true, spendId: 'spend-v2', creditsCharged: 3 },
          },
        ]);
    }
    // And after a reactivation, the next is one again.
    given([...paidActive, ended('v2', 'ended_early', 500, 100)])
      .when(request('v3', 800))
      .then([requested('v3', true)]);
  });
  it('does not count a session that never connected, nor one that never started', () => {
    given([...firstActive, ended('v1', 'connect_failed', 10, 10)])
      .when(request('v2', 20))
      .then([requested('v2')]);
    given([...delivered, requested('v1'), failed('v1', 'provider_failed')])
      .when(request('v2', 20))
      .then([requested('v2')]);
    // A reactivation that never connected leaves the included one counted.
    given([...paidActive, ended('v2', 'connect_failed', 410, 10)])
      .when(request('v3', 420))
      .then([requested('v3', true)]);
  });
  it('keeps the count of sessions, reactivations and credits charged', () => {
    expect(voiceOf(delivered)).toMatchObject({
      current: null,
      countedSessions: 0,
      reactivations: 0,
      creditsCharged: 0,
    });
    expect(voiceOf(firstUsed)).toMatchObject({
      current: null,
      countedSessions: 1,
      reactivations: 0,
      creditsCharged: 0,
      secondsUsed: LENGTH,
    });
    expect(voiceOf(paidActive)).toMatchObject({
      current: {
        sessionId: 'v2',
        phase: 'active',
        reactivation: true,
        spendId: 'spend-v2',
        creditsCharged: COST,
        startedAt: iso(400),
        endsAt: iso(700),
      },
      countedSessions: 2,
      reactivations: 1,
      creditsCharged: COST,
    });
    expect(voiceOf([...firstActive, ended('v1', 'connect_failed', 10, 10)]).countedSessions).toBe(
      0,
    );
  });
});

describe('voice guide: one session at a time', () => {
  it('refuses a second session while one is being started, with that session', () => {
    given([...delivered, requested('v1')])
      .when(request('v2'))
      .thenThrows('voice_session_active', 'A voice session is already running for this reading', {
        sessionId: 'v1',
        phase: 'requested',
        endsAt: null,
      });
  });
  it('refuses a second session while one runs, with its end', () => {
    given(firstActive)
      .when(request('v2', 120))
      .thenThrows('voice_session_active', undefined, {
        sessionId: 'v1',
        phase: 'active',
        endsAt: iso(LENGTH),
      });
    // A second before its end it still runs.
    given(firstActive)
      .when(request('v2', LENGTH - 1))
      .thenThrows('voice_session_active');
    given(paidRequested).when(request('v3', 400)).thenThrows('voice_session_active', undefined, {
      sessionId: 'v2',
      phase: 'requested',
    });
  });
  it('answers the same request again with nothing, whatever became of it', () => {
    given([...delivered, requested('v1')])
      .when(request('v1'))
      .thenNothingHappens();
    given(firstActive).when(request('v1', 100)).thenNothingHappens();
    // Even once its time is up: the request is not a new session (the clock ends it elsewhere).
    given(firstActive).when(request('v1', 1000)).thenNothingHappens();
    given(firstUsed).when(request('v1', 400)).thenNothingHappens();
    given([...delivered, requested('v1'), failed('v1', 'provider_failed')])
      .when(request('v1'))
      .thenNothingHappens();
    given([...paidRequested, failed('v2', 'insufficient_credits')])
      .when(request('v2', 500))
      .thenNothingHappens();
  });
  it('ends a session whose time is up by the clock first, then takes the new request', () => {
    for (const now of [LENGTH, LENGTH + 1, 5000]) {
      given(firstActive)
        .when(request('v2', now))
        .then([ended('v1', 'time_up', LENGTH, LENGTH), requested('v2', true)]);
    }
    // The slot is taken by the new one.
    const after = [...firstActive, ended('v1', 'time_up', LENGTH, LENGTH), requested('v2', true)];
    expect(voiceOf(after).current).toMatchObject({ sessionId: 'v2', phase: 'requested' });
    expect(voiceOf(after).outcomes.v1).toEqual({
      status: 'ended',
      reason: 'time_up',
      secondsUsed: LENGTH,
    });
  });
  it('does not end by the clock a session that is still being started', () => {
    given([...delivered, requested('v1')])
      .when(request('v2', 100_000))
      .thenThrows('voice_session_active', undefined, { phase: 'requested' });
  });
});

describe('voice guide: starting a session', () => {
  it('starts the requested session on the server clock: it ends `seconds` later', () => {
    given([...delivered, requested('v1')])
      .when(start('v1', 10))
      .then([started('v1', 10)]);
    given([...delivered, requested('v1')])
      .when({
        type: 'StartVoiceSession',
        sessionId: 'v1',
        provider: 'elevenlabs',
        seconds: 60,
        now: at(0),
      })
      .then([
        {
          type: 'VoiceSessionStarted',
          data: { sessionId: 'v1', provider: 'elevenlabs', startedAt: iso(0), endsAt: iso(60) },
        },
      ]);
  });
  it('starts once: started, or over, the same start is nothing', () => {
    given(firstActive).when(start('v1', 5)).thenNothingHappens();
    given(firstUsed).when(start('v1', 400)).thenNothingHappens();
    given([...firstActive, ended('v1', 'connect_failed', 10, 10)])
      .when(start('v1', 20))
      .thenNothingHappens();
  });
  it('never starts a session that failed (its refund may be under way)', () => {
    given([...paidRequested, failed('v2', 'interrupted')])
      .when(start('v2', 400))
      .thenThrows('voice_session_failed', 'This voice session could not be started');
    given([...delivered, requested('v1'), failed('v1', 'provider_failed')])
      .when(start('v1'))
      .thenThrows('voice_session_failed');
  });
  it('does not know a session never requested', () => {
    given(delivered).when(start('v1')).thenThrows('voice_session_not_found');
    given(firstActive).when(start('v9')).thenThrows('voice_session_not_found');
  });
});

describe('voice guide: a session that could not be started', () => {
  it('fails only while being started', () => {
    given([...delivered, requested('v1')])
      .when(fail('v1', 'provider_failed'))
      .then([failed('v1', 'provider_failed')]);
    given(paidRequested)
      .when(fail('v2', 'insufficient_credits'))
      .then([failed('v2', 'insufficient_credits')]);
  });
  it('never fails a session that started (running or over): it was delivered', () => {
    given(firstActive)
      .when(fail('v1', 'interrupted'))
      .thenThrows('voice_session_started', 'This voice session started; it cannot fail');
    given(firstUsed).when(fail('v1', 'provider_failed')).thenThrows('voice_session_started');
    given([...paidActive, ended('v2', 'connect_failed', 405, 5)])
      .when(fail('v2', 'provider_failed'))
      .thenThrows('voice_session_started');
  });
  it('fails once; an unknown session is not found', () => {
    given([...paidRequested, failed('v2', 'provider_failed')])
      .when(fail('v2', 'interrupted'))
      .thenNothingHappens();
    given([...paidRequested, failed('v2', 'spend_refused')])
      .when(fail('v2', 'spend_refused'))
      .thenNothingHappens();
    given(delivered).when(fail('v1', 'interrupted')).thenThrows('voice_session_not_found');
  });
  it('owes a failed paid session its reactivation back, and frees the slot', () => {
    for (const reason of ['provider_failed', 'interrupted'] as const) {
      const voice = voiceOf([...paidRequested, failed('v2', reason)]);
      expect(voice.current).toBeNull();
      expect(voice.refundsOwed).toEqual([{ sessionId: 'v2', spendId: 'spend-v2', credits: COST }]);
      // Charged until the refund is settled.
      expect(voice.reactivations).toBe(1);
      expect(voice.creditsCharged).toBe(COST);
      expect(voice.outcomes.v2).toEqual({ status: 'failed', reason });
    }
  });
  it('owes nothing when the spend itself was refused: the reactivation is undone', () => {
    for (const reason of ['insufficient_credits', 'spend_refused'] as const) {
      const history = [...paidRequested, failed('v2', reason)];
      expect(voiceOf(history)).toMatchObject({
        current: null,
        refundsOwed: [],
        reactivations: 0,
        creditsCharged: 0,
        countedSessions: 1,
      });
      given(history).when(settle('v2', true)).thenNothingHappens();
      // The next attempt is a reactivation again (the included session was used).
      given(history)
        .when(request('v3', 500))
        .then([requested('v3', true)]);
    }
  });
  it('owes nothing for an included session that failed', () => {
    const history = [...delivered, requested('v1'), failed('v1', 'provider_failed')];
    expect(voiceOf(history).refundsOwed).toEqual([]);
    given(history).when(settle('v1', true)).thenNothingHappens();
  });
});

describe('voice guide: ending a session', () => {
  it('records an early end with the seconds used, on the server clock', () => {
    given(firstActive)
      .when(end('v1', 'ended_early', 100))
      .then([ended('v1', 'ended_early', 100, 100)]);
    given(firstActive)
      .when(end('v1', 'left', 42.7))
      .then([
        {
          type: 'VoiceSessionEnded',
          data: { sessionId: 'v1', reason: 'left', endedAt: iso(42.7), secondsUsed: 42 },
        },
      ]);
    expect(voiceOf([...firstActive, ended('v1', 'ended_early', 100, 100)])).toMatchObject({
      current: null,
      secondsUsed: 100,
      countedSessions: 1,
    });
  });
  it("takes the browser's time_up as the end only within the tolerance of endsAt", () => {
    const tolerance = VOICE_TIME_UP_TOLERANCE_SECONDS;
    // Within the tolerance: the clock's end, the full length used.
    given(firstActive)
      .when(end('v1', 'time_up', LENGTH - tolerance))
      .then([ended('v1', 'time_up', LENGTH - tolerance, LENGTH)]);
    given(firstActive)
      .when(end('v1', 'time_up', LENGTH - 1))
      .then([ended('v1', 'time_up', LENGTH - 1, LENGTH)]);
    // More than the tolerance early: an early end, with the seconds really used.
    given(firstActive)
      .when(end('v1', 'time_up', LENGTH - tolerance - 1))
      .then([ended('v1', 'ended_early', LENGTH - tolerance - 1, LENGTH - tolerance - 1)]);
    // Half a second more than the tolerance is more than the tolerance.
    given(firstActive)
      .when(end('v1', 'time_up', LENGTH - tolerance - 0.5))
      .then([ended('v1', 'ended_early', LENGTH - tolerance - 0.5, LENGTH - tolerance - 1)]);
    given(firstActive)
      .when(end('v1', 'time_up', 10))
      .then([ended('v1', 'ended_early', 10, 10)]);
  });
  it('believes connect_failed only within the grace after the start', () => {
    const grace = VOICE_CONNECT_GRACE_SECONDS;
    given(firstActive)
      .when(end('v1', 'connect_failed', 3))
      .then([ended('v1', 'connect_failed', 3, 3)]);
    given(firstActive)
      .when(end('v1', 'connect_failed', grace))
      .then([ended('v1', 'connect_failed', grace, grace)]);
    given(firstActive)
      .when(end('v1', 'connect_failed', grace + 1))
      .then([ended('v1', 'ended_early', grace + 1, grace + 1)]);
    // Half a second after the grace is after the grace (whole seconds used: still `grace`).
    given(firstActive)
      .when(end('v1', 'connect_failed', grace + 0.5))
      .then([ended('v1', 'ended_early', grace + 0.5, grace)]);
    given(paidActive)
      .when(end('v2', 'connect_failed', 400 + grace + 60))
      .then([ended('v2', 'ended_early', 400 + grace + 60, grace + 60)]);
  });
  it('ends any session after endsAt as time up, at endsAt, with the full length', () => {
    for (const reason of ['time_up', 'ended_early', 'left', 'connect_failed'] as const) {
      for (const now of [LENGTH, LENGTH + 0.5, 1000]) {
        given(firstActive)
          .when(end('v1', reason, now))
          .then([ended('v1', 'time_up', LENGTH, LENGTH)]);
      }
    }
  });
  it('ends once', () => {
    given(firstUsed)
      .when(end('v1', 'ended_early', 400))
      .thenNothingHappens();
    given([...firstActive, ended('v1', 'ended_early', 100, 100)])
      .when(end('v1', 'time_up', 100))
      .thenNothingHappens();
    given([...firstActive, ended('v1', 'connect_failed', 5, 5)])
      .when(end('v1', 'connect_failed', 5))
      .thenNothingHappens();
    // A failed session is over too.
    given([...paidRequested, failed('v2', 'provider_failed')])
      .when(end('v2', 'left', 400))
      .thenNothingHappens();
  });
  it("is the owner's (or the server's): someone else's end is not found", () => {
    given(firstActive)
      .when(end('v1', 'ended_early', 100, 'u2'))
      .thenThrows('reading_not_found', 'Reading Not Found');
    given(firstUsed)
      .when(end('v1', 'ended_early', 400, 'u2'))
      .thenThrows('reading_not_found');
    given(firstActive)
      .when(end('v1', 'ended_early', 100, undefined))
      .then([ended('v1', 'ended_early', 100, 100)]);
  });
  it('leaves a session still being started alone: the start goes on and the clock ends it', () => {
    given([...delivered, requested('v1')])
      .when(end('v1', 'left', 5))
      .thenNothingHappens();
    given(paidRequested)
      .when(end('v2', 'connect_failed', 400))
      .thenNothingHappens();
  });
  it('does not know a session never requested', () => {
    given(firstActive)
      .when(end('v9', 'left', 5))
      .thenThrows('voice_session_not_found');
    given(delivered)
      .when(end('v1', 'left', 5))
      .thenThrows('voice_session_not_found');
  });
});

describe("voice guide: the server's clock", () => {
  it('ends the running session at or after endsAt, once; nothing before', () => {
    given(firstActive)
      .when(expire(LENGTH - 1))
      .thenNothingHappens();
    given(firstActive)
      .when(expire(LENGTH))
      .then([ended('v1', 'time_up', LENGTH, LENGTH)]);
    given(firstActive)
      .when(expire(LENGTH + 3600))
      .then([ended('v1', 'time_up', LENGTH, LENGTH)]);
    given(firstUsed)
      .when(expire(LENGTH + 3600))
      .thenNothingHappens();
  });
  it('has nothing to end without a running session', () => {
    given(delivered).when(expire(1000)).thenNothingHappens();
    given([...delivered, requested('v1')])
      .when(expire(100_000))
      .thenNothingHappens();
    given([]).when(expire(0)).thenNothingHappens();
  });
});

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
