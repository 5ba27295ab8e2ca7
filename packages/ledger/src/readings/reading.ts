import type { ReadingEvent } from '@astra/contracts';
import { evolveVoice, initialVoice, type Voice } from './voice.ts';

export type { ReadingEvent } from '@astra/contracts';

type FailureReason = Extract<ReadingEvent, { type: 'ReadingFailed' }>['data']['reason'];

export interface Reading {
  status: 'none' | 'pending' | 'completed' | 'failed' | 'deleted';
  readingId: string | null;
  userId: string | null;
  appId: number | null;
  spendId: string | null;
  creditsCharged: number;
  /** Why it failed (the reason its refund is given with). */
  failureReason: FailureReason | null;
  /**
   * Failed, and its spend not yet settled: the spend must be given back (or found to be beyond
   * giving back) and `ReadingRefundSettled` recorded. Only a failed reading can owe a refund.
   */
  refundOwed: boolean;
  /** The voice guide's sessions (a delivered reading's). */
  voice: Voice;
}

export const initialReading = (): Reading => ({
  status: 'none',
  readingId: null,
  userId: null,
  appId: null,
  spendId: null,
  creditsCharged: 0,
  failureReason: null,
  refundOwed: false,
  voice: initialVoice(),
});

/**
 * Whether a failure leaves a refund to settle. Not when the spend was refused (nothing was paid),
 * the reading was free, or the failure says it was refunded already (logs written before the
 * failure came first). Logs of that time whose refund was refused (`refunded: false`) owe one
 * settling too: retrying the refund is harmless, it is refused again or finds it done.
 */
const failureOwesRefund = (
  state: Reading,
  failure: Extract<ReadingEvent, { type: 'ReadingFailed' }>['data'],
) => !failure.refunded && failure.reason !== 'insufficient_credits' && state.creditsCharged > 0;

export const evolve = (state: Reading, event: ReadingEvent): Reading => {
  switch (event.type) {
    case 'ReadingRequested':
      return {
        ...initialReading(),
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
      return {
        ...state,
        status: 'failed',
        failureReason: event.data.reason,
        refundOwed: failureOwesRefund(state, event.data),
      };
    case 'ReadingRefundSettled':
      return { ...state, refundOwed: false };
    case 'ReadingDeleted':
      return { ...state, status: 'deleted' };
    case 'VoiceSessionRequested':
    case 'VoiceSessionStarted':
    case 'VoiceSessionFailed':
    case 'VoiceSessionEnded':
    case 'VoiceRefundSettled':
      return { ...state, voice: evolveVoice(state.voice, event) };
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown reading event ${JSON.stringify(exhaustive)}`);
    }
  }
};
