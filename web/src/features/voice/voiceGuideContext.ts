import type { VoiceConnection, VoiceProvider, VoiceStatus } from '@astra/contracts';
import { createContext, type RefObject, useContext } from 'react';

/** A session this page holds: the server's, with where its countdown ends on this browser's clock. */
export interface LocalVoiceSession {
  sessionId: string;
  provider: VoiceProvider;
  reactivation: boolean;
  /** The countdown's end, in ms on the browser's clock. */
  deadline: number;
  /** How to hold the conversation; null for a session found running (after a reload). */
  connection: VoiceConnection | null;
  /** The conversation was made (the offline guide always is). */
  connected: boolean;
  /** When this page learnt of the session (browser clock). */
  knownSince: number;
}

export interface VoiceGuide {
  readingId: string;
  firstName: string | null;
  /** The reading's text: what the offline guide reads and answers from. */
  readingText: string;
  /** Celtic Cross: its own time-up message, and the timer shows the full session after an end. */
  celticCross: boolean;
  /** The button's label before the first session ('Speak to Voice Guide' / 'Activate Voice Guide'). */
  startLabel: string;
  status: VoiceStatus | undefined;
  statusFailed: boolean;
  retryStatus: () => void;
  session: LocalVoiceSession | null;
  /** What the countdown shows now (null until the status is known). */
  shownSeconds: number | null;
  starting: boolean;
  /** The balance, from the signed-in user. */
  balance: number | undefined;
  /** The next session's price is more than the balance. */
  insufficient: boolean;
  /** Starts a session, or, while one runs, brings its conversation control into view. */
  press: () => void;
  endEarly: () => void;
  /** The conversation control reports that its conversation was made, or could not be. */
  markConnected: () => void;
  connectFailed: () => void;
  /** The conversation control's element (focused when the button is pressed during a session). */
  controlRef: RefObject<HTMLDivElement | null>;
}

export const VoiceGuideContext = createContext<VoiceGuide | null>(null);

/** The page's voice guide, or null where there is none (a reading opened from an old link). */
export const useVoiceGuide = () => useContext(VoiceGuideContext);
