import type { Decider } from '../decider.ts';
import { decide, type ReadingCommand } from './businessLogic.ts';
import { evolve, initialReading, type Reading, type ReadingEvent } from './reading.ts';

export { type ReadingCommand, readingErrors } from './businessLogic.ts';
export { initialReading, type Reading, type ReadingEvent } from './reading.ts';

export const readingDecider: Decider<Reading, ReadingCommand, ReadingEvent> = {
  initialState: initialReading,
  evolve,
  decide,
};
