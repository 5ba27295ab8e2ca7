import type { ReadingEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import { fold, readingDecider } from '../src/index.ts';
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
/** A failure recorded before its refund, as the saga records it now. */
const failedFirst: ReadingEvent = {
  type: 'ReadingFailed',
  data: { reason: 'generation_failed', refunded: false },
};
const refundSettled: ReadingEvent = {
  type: 'ReadingRefundSettled',
  data: { spendId: 's1', refunded: true },
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
  it('fails only while pending, once', () => {
    given([requested])
      .when({ type: 'FailReading', reason: 'generation_failed', refunded: true })
      .then([failed]);
    given([requested])
      .when({ type: 'FailReading', reason: 'generation_failed' })
      .then([failedFirst]);
    given([requested, failedFirst])
      .when({ type: 'FailReading', reason: 'interrupted' })
      .thenNothingHappens();
    given([]).when({ type: 'FailReading', reason: 'interrupted' }).thenThrows('reading_not_found');
  });
  it('never fails a delivered reading, so never refunds one', () => {
    given([requested, generated])
      .when({ type: 'FailReading', reason: 'generation_failed' })
      .thenThrows('reading_completed');
    given([requested, generated])
      .when({ type: 'FailReading', reason: 'interrupted', refunded: true })
      .thenThrows('reading_completed');
    given([requested, generated, { type: 'ReadingDeleted', data: {} }])
      .when({ type: 'FailReading', reason: 'interrupted' })
      .thenThrows('reading_completed');
    given([requested, generated])
      .when({ type: 'SettleRefund', refunded: true })
      .thenNothingHappens();
  });
  it('owes a refund from its failure until the refund is settled, once', () => {
    const owes = (events: ReadingEvent[]) => fold(readingDecider, events).refundOwed;
    expect(owes([requested, failedFirst])).toBe(true);
    expect(owes([requested, failedFirst, refundSettled])).toBe(false);
    given([requested, failedFirst])
      .when({ type: 'SettleRefund', refunded: true })
      .then([refundSettled]);
    given([requested, failedFirst, refundSettled])
      .when({ type: 'SettleRefund', refunded: true })
      .thenNothingHappens();
    // Nothing could be given back (no spend, or the account closed): settled all the same.
    given([requested, failedFirst])
      .when({ type: 'SettleRefund', refunded: false })
      .then([{ type: 'ReadingRefundSettled', data: { spendId: 's1', refunded: false } }]);
  });
  it('owes nothing when nothing was paid or the old log refunded before failing', () => {
    const owes = (events: ReadingEvent[]) => fold(readingDecider, events).refundOwed;
    expect(owes([requested])).toBe(false);
    expect(owes([requested, failed])).toBe(false); // refunded first (logs written before the gate)
    const refused: ReadingEvent = {
      type: 'ReadingFailed',
      data: { reason: 'insufficient_credits', refunded: false },
    };
    expect(owes([requested, refused])).toBe(false);
    const free: ReadingEvent = {
      type: 'ReadingRequested',
      data: { ...request, creditsCharged: 0 },
    };
    expect(owes([free, failedFirst])).toBe(false);
    given([requested, refused]).when({ type: 'SettleRefund', refunded: true }).thenNothingHappens();
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
