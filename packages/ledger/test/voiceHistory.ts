/** Reading-stream histories and voice commands shared by the voice guide's specs. */
import type { ReadingEvent, VoiceEndReason, VoiceFailureReason } from '@astra/contracts';
import { fold, type ReadingCommand, readingDecider } from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

/**
 * The voice guide of a delivered reading: one session slot, the first session included in the
 * reading's price, later ones paid reactivations, the server's clock ending them, and the refund
 * of a paid session that never started (or never connected) gated on its recorded failure.
 */
export const given = deciderSpecification(readingDecider);

export const LENGTH = 300;
export const COST = 2;
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
/** The clock `s` seconds after T0. */
export const at = (s: number) => new Date(T0 + s * 1000);
export const iso = (s: number) => at(s).toISOString();

export const readingRequested: ReadingEvent = {
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
export const delivered = [readingRequested, generated];

// Events
export const requested = (sessionId: string, reactivation = false, cost = COST): ReadingEvent => ({
  type: 'VoiceSessionRequested',
  data: {
    sessionId,
    reactivation,
    spendId: reactivation ? `spend-${sessionId}` : null,
    creditsCharged: reactivation ? cost : 0,
  },
});
export const started = (sessionId: string, from = 0, length = LENGTH): ReadingEvent => ({
  type: 'VoiceSessionStarted',
  data: { sessionId, provider: 'offline', startedAt: iso(from), endsAt: iso(from + length) },
});
export const failed = (sessionId: string, reason: VoiceFailureReason): ReadingEvent => ({
  type: 'VoiceSessionFailed',
  data: { sessionId, reason },
});
export const ended = (
  sessionId: string,
  reason: VoiceEndReason,
  endedAt: number,
  secondsUsed: number,
): ReadingEvent => ({
  type: 'VoiceSessionEnded',
  data: { sessionId, reason, endedAt: iso(endedAt), secondsUsed },
});
export const settled = (sessionId: string, refunded: boolean): ReadingEvent => ({
  type: 'VoiceRefundSettled',
  data: { sessionId, spendId: `spend-${sessionId}`, refunded },
});

// Commands
export const request = (
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
export const start = (sessionId: string, now = 0, seconds = LENGTH): ReadingCommand => ({
  type: 'StartVoiceSession',
  sessionId,
  provider: 'offline',
  seconds,
  now: at(now),
});
export const fail = (sessionId: string, reason: VoiceFailureReason): ReadingCommand => ({
  type: 'FailVoiceSession',
  sessionId,
  reason,
});
export const end = (
  sessionId: string,
  reason: VoiceEndReason,
  now: number,
  userId: string | undefined = 'u1',
): ReadingCommand =>
  userId === undefined
    ? { type: 'EndVoiceSession', sessionId, reason, now: at(now) }
    : { type: 'EndVoiceSession', sessionId, reason, now: at(now), userId };
export const expire = (now: number): ReadingCommand => ({
  type: 'ExpireVoiceSession',
  now: at(now),
});
export const settle = (sessionId: string, refunded: boolean): ReadingCommand => ({
  type: 'SettleVoiceRefund',
  sessionId,
  refunded,
});

export const voiceOf = (events: ReadingEvent[]) => fold(readingDecider, events).voice;

// Histories
/** The included session v1, running from 0 to 300. */
export const firstActive = [...delivered, requested('v1'), started('v1', 0)];
/** The included session used up (time up at 300). */
export const firstUsed = [...firstActive, ended('v1', 'time_up', LENGTH, LENGTH)];
/** A paid reactivation v2, requested (its charge in flight). */
export const paidRequested = [...firstUsed, requested('v2', true)];
/** The paid reactivation v2, running from 400 to 700. */
export const paidActive = [...paidRequested, started('v2', 400)];
