import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ReadingDraft,
  type ReadingStreamEventName,
  type ReadingStreamFailed,
  type ReadingTextChunk,
  readingMessages,
} from '@astra/contracts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Catalog } from './catalog.ts';
import { DRAFT_POLL_MS, type Draft, type ReadingDrafts } from './drafts.ts';
import { type Recorded, readingViewOf, recordedReading } from './recorded.ts';

/**
 * A reading's text as a stream of events for its owner, from any API process: the reading with
 * its facts, the text from where the reader is (`from`), each new piece as it is written, then
 * the outcome (`done` with the recorded result, or `failed`). The reading's own stream decides
 * the outcome; the draft (`drafts.ts`) only carries the text while it is written.
 */

export type StreamEvent =
  | { event: 'reading'; data: ReadingDraft }
  | { event: 'text'; data: ReadingTextChunk; id: string }
  | { event: 'done'; data: { result: Record<string, unknown> }; id: string }
  | { event: 'failed'; data: ReadingStreamFailed };
export type { ReadingStreamEventName };

/** How often a reading still pending is looked up on its stream (a recovery may fail it). */
const RECHECK_MS = 2_000;
/** How long a failure's refund may take to be settled before the stream says what it knows. */
const REFUND_WAIT_MS = 5_000;

const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => {});

const textOf = (result: Record<string, unknown>, field: string) =>
  typeof result[field] === 'string' ? (result[field] as string) : '';

/**
 * The owner's reading, or null (unknown, someone else's, deleted: not told apart). Asked before
 * the events, so that the route can still answer `404`.
 */
export async function streamableReading(ledger: Ledger, readingId: string, userId: string) {
  const recorded = await recordedReading(ledger, readingId);
  if (!recorded || recorded.state.userId !== userId || recorded.state.status === 'deleted')
    return null;
  return recorded;
}

/**
 * The events of one reading for a reader who has `from` characters of its text. Ends after
 * `done` or `failed`, or when `signal` aborts (the reader left; the server stops).
 */
export async function* readingEvents(
  deps: { ledger: Ledger; drafts: ReadingDrafts; catalog: Catalog },
  first: Recorded,
  from: number,
  signal: AbortSignal,
  /** Waits for the read models to include the result before `done` (read-your-writes). */
  beforeDone: (position: bigint | null) => Promise<void>,
): AsyncGenerator<StreamEvent> {
  const { ledger, drafts, catalog } = deps;
  const readingId = first.requested.readingId;
  let recorded = first;
  let sent = from;
  let run: string | null = null;
  let checkedAt = Date.now();
  const text = (all: string): StreamEvent[] => {
    if (all.length <= sent) return [];
    const piece = { offset: sent, text: all.slice(sent) };
    sent = all.length;
    return [{ event: 'text', data: piece, id: String(sent) }];
  };

  while (!signal.aborted) {
    const { state } = recorded;
    if (state.status === 'completed' && recorded.result) {
      const view: ReadingDraft = {
        ...readingViewOf(recorded, recorded.result, catalog),
        status: 'completed',
      };
      if (run === null) yield { event: 'reading', data: view };
      yield* text(textOf(recorded.result, view.textField));
      await beforeDone(recorded.completedAt);
      yield { event: 'done', data: { result: recorded.result }, id: String(sent) };
      return;
    }
    if (state.status !== 'pending') {
      // Failed (or deleted meanwhile): its refund follows the failure at once; say how it went.
      const deadline = Date.now() + REFUND_WAIT_MS;
      while (recorded.state.refundOwed && Date.now() < deadline && !signal.aborted) {
        await pause(DRAFT_POLL_MS, signal);
        recorded = (await recordedReading(ledger, readingId)) ?? recorded;
      }
      yield {
        event: 'failed',
        data: {
          error: 'generation_failed',
          message: readingMessages.generationFailed,
          refunded: recorded.refunded === true,
        },
      };
      return;
    }

    const draft: Draft | null = await drafts.read(readingId);
    if (draft) {
      if (draft.run !== run) {
        // A first look, or a new writing of the reading (a re-run starts its text anew).
        if (run !== null) sent = 0;
        run = draft.run;
        yield {
          event: 'reading',
          data: { ...readingViewOf(recorded, draft.result, catalog), status: 'writing' },
        };
      }
      yield* text(draft.text);
      await drafts.changed(readingId, sent, signal);
      // The stream is looked at now and then all the same (a recovery may fail the reading).
      if (Date.now() - checkedAt < RECHECK_MS) continue;
    }
    // No draft: the writing is over (its outcome recorded), or not begun, or cut off by a crash.
    recorded = (await recordedReading(ledger, readingId)) ?? recorded;
    checkedAt = Date.now();
    if (!draft && recorded.state.status === 'pending') await pause(RECHECK_MS, signal);
  }
}
