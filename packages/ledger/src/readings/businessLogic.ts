import type {
  ReadingEvent,
  VoiceEndReason,
  VoiceFailureReason,
  VoiceProvider,
} from '@astra/contracts';
import { DomainError } from '../decider.ts';
import type { Reading } from './reading.ts';
import type { Voice, VoiceSession } from './voice.ts';

/**
 * How long after its start a session may still be reported as never connected (and so not
 * count, and have its reactivation given back); a later report is an early end. It bounds what a
 * browser that lies could talk for free.
 */
export const VOICE_CONNECT_GRACE_SECONDS = 30;
/** A browser's 'time is up' this close to `endsAt` is the clock's end (clocks drift a little). */
export const VOICE_TIME_UP_TOLERANCE_SECONDS = 5;

type Requested = Extract<ReadingEvent, { type: 'ReadingRequested' }>['data'];

export type ReadingCommand =
  | ({ type: 'RequestReading' } & Requested)
  | { type: 'CompleteReading'; result: Record<string, unknown>; writer: string }
  | {
      type: 'FailReading';
      reason: 'insufficient_credits' | 'generation_failed' | 'interrupted';
      /**
       * True only when the spend was given back before this failure (the order of older logs
       * and tools). The saga leaves it out: it records the failure first, then `SettleRefund`.
       */
      refunded?: boolean;
    }
  /** After the credit stream's refund of a failed reading's spend: `refunded` says if any was given. */
  | { type: 'SettleRefund'; refunded: boolean }
  | { type: 'DeleteReading'; userId: string }
  /**
   * Claims the reading's session slot for a new session (ending one whose time is up first): the
   * first counted session is included, a later one is a reactivation paid by `spendId`.
   */
  | {
      type: 'RequestVoiceSession';
      userId: string;
      sessionId: string;
      spendId: string;
      reactivationCost: number;
      now: Date;
    }
  | {
      type: 'StartVoiceSession';
      sessionId: string;
      provider: VoiceProvider;
      seconds: number;
      now: Date;
    }
  | { type: 'FailVoiceSession'; sessionId: string; reason: VoiceFailureReason }
  /** The user's end (early, leaving, never connected, or their timer's zero); `userId` checks the owner. */
  | {
      type: 'EndVoiceSession';
      sessionId: string;
      reason: VoiceEndReason;
      now: Date;
      userId?: string;
    }
  /** The server's clock: ends the running session if its time is up (nothing otherwise). */
  | { type: 'ExpireVoiceSession'; now: Date }
  | { type: 'SettleVoiceRefund'; sessionId: string; refunded: boolean };

type Command<T extends ReadingCommand['type']> = Extract<ReadingCommand, { type: T }>;

export const readingErrors = {
  notFound: () => new DomainError('reading_not_found', 'Reading Not Found'),
  alreadyFailed: () =>
    new DomainError(
      'reading_failed',
      'This reading could not be completed and its credits were returned',
    ),
  alreadyCompleted: () =>
    new DomainError('reading_completed', 'This reading was delivered; it cannot fail'),
  voiceSessionActive: (session: VoiceSession) =>
    new DomainError('voice_session_active', 'A voice session is already running for this reading', {
      sessionId: session.sessionId,
      phase: session.phase,
      endsAt: session.phase === 'active' ? session.endsAt : null,
    }),
  voiceSessionNotFound: () => new DomainError('voice_session_not_found', 'No such voice session'),
  voiceSessionFailed: () =>
    new DomainError('voice_session_failed', 'This voice session could not be started'),
  voiceSessionStarted: () =>
    new DomainError('voice_session_started', 'This voice session started; it cannot fail'),
};

const seconds = (from: string | Date, to: string | Date) =>
  Math.floor((new Date(to).getTime() - new Date(from).getTime()) / 1000);

/** The running session's end by the clock, if its time is up: the events that record it. */
const timeUp = (voice: Voice, now: Date): ReadingEvent[] => {
  const session = voice.current;
  if (session?.phase !== 'active' || now.getTime() < new Date(session.endsAt).getTime()) return [];
  return [
    {
      type: 'VoiceSessionEnded',
      data: {
        sessionId: session.sessionId,
        reason: 'time_up',
        endedAt: session.endsAt,
        secondsUsed: seconds(session.startedAt, session.endsAt),
      },
    },
  ];
};

function requestVoiceSession(command: Command<'RequestVoiceSession'>, state: Reading) {
  // Someone else's reading, an undelivered or a deleted one: no voice guide to talk to.
  if (state.status !== 'completed' || state.userId !== command.userId)
    throw readingErrors.notFound();
  const { voice } = state;
  const { sessionId } = command;
  // The same request again: started, starting, failed or over, it is answered as it stands.
  if (voice.current?.sessionId === sessionId || voice.outcomes[sessionId]) return [];
  const expired = timeUp(voice, command.now);
  if (voice.current && expired.length === 0) throw readingErrors.voiceSessionActive(voice.current);
  const reactivation = voice.countedSessions > 0;
  return [
    ...expired,
    {
      type: 'VoiceSessionRequested',
      data: {
        sessionId,
        reactivation,
        spendId: reactivation ? command.spendId : null,
        creditsCharged: reactivation ? command.reactivationCost : 0,
      },
    },
  ] satisfies ReadingEvent[];
}

function startVoiceSession(command: Command<'StartVoiceSession'>, state: Reading): ReadingEvent[] {
  const { current, outcomes } = state.voice;
  if (current?.sessionId === command.sessionId) {
    if (current.phase === 'active') return [];
    const startedAt = command.now.toISOString();
    const endsAt = new Date(command.now.getTime() + command.seconds * 1000).toISOString();
    return [
      {
        type: 'VoiceSessionStarted',
        data: { sessionId: command.sessionId, provider: command.provider, startedAt, endsAt },
      },
    ];
  }
  const outcome = outcomes[command.sessionId]?.status;
  if (outcome === 'ended') return [];
  if (outcome === 'failed') throw readingErrors.voiceSessionFailed();
  throw readingErrors.voiceSessionNotFound();
}

function failVoiceSession(command: Command<'FailVoiceSession'>, state: Reading): ReadingEvent[] {
  const { current, outcomes } = state.voice;
  if (current?.sessionId === command.sessionId) {
    // A started session was delivered: it ends, it never fails (so it is never refunded so).
    if (current.phase === 'active') throw readingErrors.voiceSessionStarted();
    return [
      {
        type: 'VoiceSessionFailed',
        data: { sessionId: command.sessionId, reason: command.reason },
      },
    ];
  }
  const outcome = outcomes[command.sessionId]?.status;
  if (outcome === 'failed') return []; // recorded already
  if (outcome === 'ended') throw readingErrors.voiceSessionStarted();
  throw readingErrors.voiceSessionNotFound();
}

function endVoiceSession(command: Command<'EndVoiceSession'>, state: Reading): ReadingEvent[] {
  if (command.userId !== undefined && state.userId !== command.userId)
    throw readingErrors.notFound();
  const { current, outcomes } = state.voice;
  if (current?.sessionId !== command.sessionId) {
    if (outcomes[command.sessionId]) return []; // over already: written once
    throw readingErrors.voiceSessionNotFound();
  }
  // Still being started: the start goes on, and the clock ends it.
  if (current.phase !== 'active') return [];
  const expired = timeUp(state.voice, command.now);
  if (expired.length > 0) return expired;
  const used = Math.max(0, seconds(current.startedAt, command.now));
  // Compared in milliseconds: whole seconds would stretch the tolerance and the grace by up to one.
  const leftMs = new Date(current.endsAt).getTime() - command.now.getTime();
  const usedMs = command.now.getTime() - new Date(current.startedAt).getTime();
  const reason =
    (command.reason === 'time_up' && leftMs > VOICE_TIME_UP_TOLERANCE_SECONDS * 1000) ||
    (command.reason === 'connect_failed' && usedMs > VOICE_CONNECT_GRACE_SECONDS * 1000)
      ? 'ended_early'
      : command.reason;
  return [
    {
      type: 'VoiceSessionEnded',
      data: {
        sessionId: current.sessionId,
        reason,
        endedAt: command.now.toISOString(),
        secondsUsed: reason === 'time_up' ? seconds(current.startedAt, current.endsAt) : used,
      },
    },
  ];
}

function settleVoiceRefund(command: Command<'SettleVoiceRefund'>, state: Reading): ReadingEvent[] {
  const owed = state.voice.refundsOwed.find((r) => r.sessionId === command.sessionId);
  if (!owed) return []; // nothing owed, or settled already
  return [
    {
      type: 'VoiceRefundSettled',
      data: { sessionId: owed.sessionId, spendId: owed.spendId, refunded: command.refunded },
    },
  ];
}

export const decide = (command: ReadingCommand, state: Reading): ReadingEvent[] => {
  switch (command.type) {
    case 'RequestReading': {
      if (state.status !== 'none') return []; // the same request again
      const { type: _type, ...data } = command;
      return [{ type: 'ReadingRequested', data }];
    }
    case 'CompleteReading':
      if (state.status === 'completed') return [];
      if (state.status === 'none') throw readingErrors.notFound();
      // A reading given up on (and refunded) stays given up: its text arrived too late.
      if (state.status !== 'pending') throw readingErrors.alreadyFailed();
      return [
        { type: 'ReadingGenerated', data: { result: command.result, writer: command.writer } },
      ];
    case 'FailReading':
      if (state.status === 'failed') return []; // recorded already
      if (state.status === 'none') throw readingErrors.notFound();
      // A delivered reading (completed, or deleted from the library after) never fails, so it is
      // never refunded: the refund of a failure follows only a failure this decider recorded.
      if (state.status !== 'pending') throw readingErrors.alreadyCompleted();
      return [
        {
          type: 'ReadingFailed',
          data: { reason: command.reason, refunded: command.refunded ?? false },
        },
      ];
    case 'SettleRefund':
      // Nothing owed: not failed, nothing paid, or settled already (a second settling is a no-op).
      if (!state.refundOwed || !state.spendId) return [];
      return [
        {
          type: 'ReadingRefundSettled',
          data: { spendId: state.spendId, refunded: command.refunded },
        },
      ];
    case 'DeleteReading':
      // Someone else's reading, or none, looks the same: not found.
      if (state.userId !== command.userId || state.status === 'none')
        throw readingErrors.notFound();
      if (state.status === 'deleted') return [];
      return [{ type: 'ReadingDeleted', data: {} }];
    case 'RequestVoiceSession':
      return requestVoiceSession(command, state);
    case 'StartVoiceSession':
      return startVoiceSession(command, state);
    case 'FailVoiceSession':
      return failVoiceSession(command, state);
    case 'EndVoiceSession':
      return endVoiceSession(command, state);
    case 'ExpireVoiceSession':
      return timeUp(state.voice, command.now);
    case 'SettleVoiceRefund':
      return settleVoiceRefund(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown reading command ${JSON.stringify(exhaustive)}`);
    }
  }
};
