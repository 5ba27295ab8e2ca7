import type { ReadingEvent } from '@astra/contracts';
import { DomainError } from '../decider.ts';
import type { Reading } from './reading.ts';

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
  | { type: 'DeleteReading'; userId: string };

export const readingErrors = {
  notFound: () => new DomainError('reading_not_found', 'Reading Not Found'),
  alreadyFailed: () =>
    new DomainError(
      'reading_failed',
      'This reading could not be completed and its credits were returned',
    ),
  alreadyCompleted: () =>
    new DomainError('reading_completed', 'This reading was delivered; it cannot fail'),
};

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
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown reading command ${JSON.stringify(exhaustive)}`);
    }
  }
};
