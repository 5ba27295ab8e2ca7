/** Starting a voice session, and a session that could not be started. */
import { describe, expect, it } from 'vitest';
import {
  at,
  COST,
  delivered,
  ended,
  fail,
  failed,
  firstActive,
  firstUsed,
  given,
  iso,
  paidActive,
  paidRequested,
  request,
  requested,
  settle,
  start,
  started,
  voiceOf,
} from './voiceHistory.ts';

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
