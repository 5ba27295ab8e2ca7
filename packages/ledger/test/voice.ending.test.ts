/** Ending a voice session: by the browser within tolerance, by its owner, by the server's clock. */
import { describe, expect, it } from 'vitest';
import { VOICE_CONNECT_GRACE_SECONDS, VOICE_TIME_UP_TOLERANCE_SECONDS } from '../src/index.ts';
import {
  delivered,
  end,
  ended,
  expire,
  failed,
  firstActive,
  firstUsed,
  given,
  iso,
  LENGTH,
  paidActive,
  paidRequested,
  requested,
  voiceOf,
} from './voiceHistory.ts';

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
