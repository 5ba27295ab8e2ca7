import type { Decider } from '../decider.ts';
import { decide, type ReadingCommand } from './businessLogic.ts';
import { evolve, initialReading, type Reading, type ReadingEvent } from './reading.ts';

export {
  type ReadingCommand,
  readingErrors,
  VOICE_CONNECT_GRACE_SECONDS,
  VOICE_TIME_UP_TOLERANCE_SECONDS,
} from './businessLogic.ts';
export { initialReading, type Reading, type ReadingEvent } from './reading.ts';
export {
  evolveVoice,
  initialVoice,
  isVoiceEvent,
  nothingSpent,
  type Voice,
  type VoiceEvent,
  type VoiceOutcome,
  type VoiceRefundOwed,
  type VoiceSession,
} from './voice.ts';

export const readingDecider: Decider<Reading, ReadingCommand, ReadingEvent> = {
  initialState: initialReading,
  evolve,
  decide,
};
