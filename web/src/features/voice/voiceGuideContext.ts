import type { VoiceConnection, VoiceProvider, VoiceStatus } from '@astra/contracts';
import { createContext, type RefObject, useContext } from 'react';
import type { MicrophoneProblem } from './microphone';

/** A session this page holds: the server's, with where its countdown ends on this browser's clock. */
export interface LocalVoiceSession {
  sessionId: string;
  provider: VoiceProvider;
  reactivation: boolean;
  /** The countdown's end, in ms on the browser's clock. */
  deadline: number;
  /**
   * How to hold the conversation; null for a session found running (started in another window,
   * or left open by a page before this one), whose one-time connection this page never had.
   */
  connection: VoiceConnection | null;
  /**
   * This page started the session and holds its conversation: only such a session is ended when
   * the page is left. One found running is shown and can be ended early, but leaving this page
   * leaves it to the window that holds it (or to the server's clock).
   */
  owned: boolean;
  /** The conversation was made (the offline guide always is). */
  connected: boolean;
  /**
   * By when (browser clock, ms) the conversation must be connected: 20 s after the server's
   * `startedAt`, inside the server's grace in which a never-connected session is refunded.
   */
  connectBy: number;
  /** When this page learnt of the session (browser clock). */
  knownSince: number;
}

export interface VoiceGuide {
  readingId: string;
  firstName: string | null;
  /** The reading's text: what the offline guide reads and answers from. */
  readingText: string;
  /** Celtic Cross: its own time-up message ('Voice consultation time has ended'). */
  celticCross: boolean;
  /** The button's label before the first session ('Speak to Voice Guide' / 'Activate Voice Guide'). */
  startLabel: string;
  status: VoiceStatus | undefined;
  statusFailed: boolean;
  retryStatus: () => void;
  session: LocalVoiceSession | null;
  /**
   * What the countdown shows now: the running session's time left, else the length of the next
   * session (a reactivation starts a fresh one), null until the status is known.
   */
  shownSeconds: number | null;
  /** Asking for the microphone, or starting a session. */
  starting: boolean;
  /** The microphone was refused or is missing: said in the card, with a way to retry. */
  microphoneProblem: MicrophoneProblem | null;
  /** The balance, from the signed-in user. */
  balance: number | undefined;
  /** The next session's price is more than the balance. */
  insufficient: boolean;
  /** Starts a session, or, while one runs, brings its conversation control into view. */
  press: () => void;
  endEarly: () => void;
  /**
   * The conversation control of a session reports on its conversation: made; never made (in
   * time, or for the microphone); or closed (by the voice service or the network). Reports about
   * a session that is no longer the one held are ignored.
   */
  markConnected: (sessionId: string) => void;
  connectFailed: (sessionId: string, microphone?: MicrophoneProblem) => void;
  conversationClosed: (sessionId: string) => void;
  /** The conversation control's element (focused when the button is pressed during a session). */
  controlRef: RefObject<HTMLDivElement | null>;
}

export const VoiceGuideContext = createContext<VoiceGuide | null>(null);

/** The page's voice guide, or null where there is none (a reading opened from an old link). */
export const useVoiceGuide = () => useContext(VoiceGuideContext);
