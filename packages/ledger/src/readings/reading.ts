import type { ReadingEvent } from '@astra/contracts';

export type { ReadingEvent } from '@astra/contracts';

export interface Reading {
  status: 'none' | 'pending' | 'completed' | 'failed' | 'deleted';
  readingId: string | null;
  userId: string | null;
  appId: number | null;
  spendId: string | null;
  creditsCharged: number;
}

export const initialReading = (): Reading => ({
  status: 'none',
  readingId: null,
  userId: null,
  appId: null,
  spendId: null,
  creditsCharged: 0,
});

export const evolve = (state: Reading, event: ReadingEvent): Reading => {
  switch (event.type) {
    case 'ReadingRequested':
      return {
        status: 'pending',
        readingId: event.data.readingId,
        userId: event.data.userId,
        appId: event.data.appId,
        spendId: event.data.spendId,
        creditsCharged: event.data.creditsCharged,
      };
    case 'ReadingGenerated':
      return { ...state, status: 'completed' };
    case 'ReadingFailed':
      return { ...state, status: 'failed' };
    case 'ReadingDeleted':
      return { ...state, status: 'deleted' };
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown reading event ${JSON.stringify(exhaustive)}`);
    }
  }
};
