import type { ReadingEvent } from '@astra/contracts';
import { describe, it } from 'vitest';
import { readingDecider } from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

const given = deciderSpecification(readingDecider);
const request = {
  readingId: 'r1',
  userId: 'u1',
  appId: 3,
  appName: 'Tarot Traditional',
  input: { firstName: 'Ada', question: 'Why?' },
  firstName: 'Ada',
  question: 'Why?',
  creditsCharged: 4,
  spendId: 's1',
};
const requested: ReadingEvent = { type: 'ReadingRequested', data: request };
const generated: ReadingEvent = {
  type: 'ReadingGenerated',
  data: { result: { readingText: 'x' }, writer: 'offline' },
};
const failed: ReadingEvent = {
  type: 'ReadingFailed',
  data: { reason: 'generation_failed', refunded: true },
};

describe('reading', () => {
  it('is requested once', () => {
    given([])
      .when({ type: 'RequestReading', ...request })
      .then([requested]);
    given([requested])
      .when({ type: 'RequestReading', ...request })
      .thenNothingHappens();
  });
  it('completes a pending request, once', () => {
    given([requested])
      .when({ type: 'CompleteReading', result: { readingText: 'x' }, writer: 'offline' })
      .then([generated]);
    given([requested, generated])
      .when({ type: 'CompleteReading', result: {}, writer: 'offline' })
      .thenNothingHappens();
  });
  it('stays failed when its text arrives after it was given up on (and refunded)', () => {
    given([requested, failed])
      .when({ type: 'CompleteReading', result: {}, writer: 'offline' })
      .thenThrows('reading_failed');
  });
  it('fails only while pending', () => {
    given([requested])
      .when({ type: 'FailReading', reason: 'generation_failed', refunded: true })
      .then([failed]);
    given([requested, generated])
      .when({ type: 'FailReading', reason: 'interrupted', refunded: true })
      .thenNothingHappens();
  });
  it("is deleted by its owner only; someone else's reading is not found", () => {
    given([requested, generated])
      .when({ type: 'DeleteReading', userId: 'u1' })
      .then([{ type: 'ReadingDeleted', data: {} }]);
    given([requested, generated])
      .when({ type: 'DeleteReading', userId: 'u2' })
      .thenThrows('reading_not_found', 'Reading Not Found');
    given([]).when({ type: 'DeleteReading', userId: 'u1' }).thenThrows('reading_not_found');
    given([requested, generated, { type: 'ReadingDeleted', data: {} }])
      .when({ type: 'DeleteReading', userId: 'u1' })
      .thenNothingHappens();
  });
});
