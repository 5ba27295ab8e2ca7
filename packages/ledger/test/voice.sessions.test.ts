/** Who may talk to a reading's voice guide, which sessions are included or paid reactivations, one at a time. */
import { describe, expect, it } from 'vitest';
import {
  COST,
  delivered,
  ended,
  failed,
  firstActive,
  firstUsed,
  given,
  iso,
  LENGTH,
  paidActive,
  paidRequested,
  readingRequested,
  request,
  requested,
  voiceOf,
} from './voiceHistory.ts';

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
