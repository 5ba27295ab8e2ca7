import type {
  ReadingEvent,
  VoiceEndReason,
  VoiceFailureReason,
  VoiceProvider,
} from '@astra/contracts';

export type VoiceEvent = Extract<
  ReadingEvent,
  {
    type:
      | 'VoiceSessionRequested'
      | 'VoiceSessionStarted'
      | 'VoiceSessionFailed'
      | 'VoiceSessionEnded'
      | 'VoiceRefundSettled';
  }
>;

/** Whether a reading's event is one of its voice sessions'. */
export const isVoiceEvent = <E extends ReadingEvent>(event: E): event is E & VoiceEvent =>
  event.type.startsWith('Voice');

/** The reading's one session slot: a session being started (its charge in flight), or running. */
export type VoiceSession = {
  sessionId: string;
  reactivation: boolean;
  spendId: string | null;
  creditsCharged: number;
} & (
  | { phase: 'requested' }
  | { phase: 'active'; provider: VoiceProvider; startedAt: string; endsAt: string }
);

/** A paid session that never started or never connected: its charge is owed back. */
export interface VoiceRefundOwed {
  sessionId: string;
  spendId: string;
  credits: number;
}

export type VoiceOutcome =
  | { status: 'failed'; reason: VoiceFailureReason }
  | { status: 'ended'; reason: VoiceEndReason; secondsUsed: number };

/** Whether a failure's reason means the spend never happened (so nothing is owed back). */
export const nothingSpent = (reason: VoiceFailureReason) =>
  reason === 'insufficient_credits' || reason === 'spend_refused';

/** The voice guide of one reading, as its stream says (the server's clock and credits decide). */
export interface Voice {
  current: VoiceSession | null;
  /** Sessions that started and count: the first is included in the price, later ones are paid. */
  countedSessions: number;
  /** How every session that left the slot ended, by id (a repeated command finds its outcome). */
  outcomes: Record<string, VoiceOutcome>;
  reactivations: number;
  /** Credits paid for reactivations, less those given back. */
  creditsCharged: number;
  secondsUsed: number;
  refundsOwed: VoiceRefundOwed[];
}

export const initialVoice = (): Voice => ({
  current: null,
  countedSessions: 0,
  outcomes: {},
  reactivations: 0,
  creditsCharged: 0,
  secondsUsed: 0,
  refundsOwed: [],
});

/** A session left the slot; its charge is owed back when `owed` (it failed or never connected). */
const leave = (voice: Voice, sessionId: string, outcome: VoiceOutcome, owed: boolean) => {
  const session = voice.current?.sessionId === sessionId ? voice.current : null;
  const refund =
    owed && session?.spendId && session.creditsCharged > 0
      ? { sessionId, spendId: session.spendId, credits: session.creditsCharged }
      : null;
  return {
    ...voice,
    current: session ? null : voice.current,
    outcomes: { ...voice.outcomes, [sessionId]: outcome },
    refundsOwed: refund ? [...voice.refundsOwed, refund] : voice.refundsOwed,
  };
};

export const evolveVoice = (voice: Voice, event: VoiceEvent): Voice => {
  switch (event.type) {
    case 'VoiceSessionRequested':
      return {
        ...voice,
        current: { ...event.data, phase: 'requested' },
        reactivations: voice.reactivations + (event.data.reactivation ? 1 : 0),
        creditsCharged: voice.creditsCharged + event.data.creditsCharged,
      };
    case 'VoiceSessionStarted': {
      if (voice.current?.sessionId !== event.data.sessionId) return voice;
      const { provider, startedAt, endsAt } = event.data;
      return {
        ...voice,
        current: { ...voice.current, phase: 'active', provider, startedAt, endsAt },
        countedSessions: voice.countedSessions + 1,
      };
    }
    case 'VoiceSessionFailed': {
      const session = voice.current?.sessionId === event.data.sessionId ? voice.current : null;
      // The spend was refused: nothing was spent, so nothing is owed or counted.
      const spent = !nothingSpent(event.data.reason);
      const failed = leave(
        voice,
        event.data.sessionId,
        { status: 'failed', reason: event.data.reason },
        spent,
      );
      if (spent || !session) return failed;
      return {
        ...failed,
        reactivations: voice.reactivations - (session.reactivation ? 1 : 0),
        creditsCharged: voice.creditsCharged - session.creditsCharged,
      };
    }
    case 'VoiceSessionEnded': {
      const neverConnected = event.data.reason === 'connect_failed';
      const { reason, secondsUsed } = event.data;
      const ended = leave(
        voice,
        event.data.sessionId,
        { status: 'ended', reason, secondsUsed },
        neverConnected,
      );
      return {
        ...ended,
        // A session that never connected does not use up the one included in the price.
        countedSessions: voice.countedSessions - (neverConnected ? 1 : 0),
        secondsUsed: voice.secondsUsed + event.data.secondsUsed,
      };
    }
    case 'VoiceRefundSettled': {
      const owed = voice.refundsOwed.find((r) => r.sessionId === event.data.sessionId);
      if (!owed) return voice;
      return {
        ...voice,
        refundsOwed: voice.refundsOwed.filter((r) => r !== owed),
        // Given back, or nothing to give back (the spend never happened, or the account was
        // closed and its credits forfeited with it): either way this reading keeps no charge.
        reactivations: voice.reactivations - 1,
        creditsCharged: voice.creditsCharged - owed.credits,
      };
    }
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown voice event ${JSON.stringify(exhaustive)}`);
    }
  }
};
