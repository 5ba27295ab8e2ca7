import {
  type Decoded,
  type ReadingDraft,
  type ReadingEvent,
  streamDecoders,
} from '@astra/contracts';
import { type Reading, readingDecider, streams } from '@astra/ledger';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Catalog } from './catalog.ts';
import { partnerOf } from './queries.ts';

type Requested = Extract<ReadingEvent, { type: 'ReadingRequested' }>['data'];

/** A reading as its stream records it: the decider's state, and what the events carry. */
export interface Recorded {
  state: Reading;
  requested: Requested;
  requestedAt: string;
  result: Record<string, unknown> | null;
  /** Position of `ReadingGenerated`, for read-your-writes before `done`. */
  completedAt: bigint | null;
  /** `ReadingRefundSettled.refunded`; null while none was recorded. */
  refunded: boolean | null;
}

/** A reading from its own stream (the write side); null when it was never requested. */
export async function recordedReading(ledger: Ledger, readingId: string): Promise<Recorded | null> {
  let state = readingDecider.initialState();
  let requested: Decoded<Extract<ReadingEvent, { type: 'ReadingRequested' }>> | undefined;
  let generated: Decoded<Extract<ReadingEvent, { type: 'ReadingGenerated' }>> | undefined;
  let refunded: boolean | null = null;
  for await (const recorded of ledger.store.readStream(streams.reading(readingId))) {
    const event = streamDecoders.reading(recorded);
    state = readingDecider.evolve(state, event);
    if (event.type === 'ReadingRequested') requested = event;
    if (event.type === 'ReadingGenerated') generated = event;
    if (event.type === 'ReadingRefundSettled') refunded = event.data.refunded;
  }
  if (!requested) return null;
  const occurredAt = requested.metadata.occurredAt;
  return {
    state,
    requested: requested.data,
    requestedAt: typeof occurredAt === 'string' ? occurredAt : requested.recordedAt.toISOString(),
    result: generated ? generated.data.result : null,
    completedAt: generated?.position ?? null,
    refunded,
  };
}

/**
 * A reading with these facts as the start's answer and its stream's `reading` event show it
 * (`GET /api/readings/:id`'s fields): the text field empty, as the text comes on the stream.
 */
export function readingViewOf(
  recorded: Recorded,
  facts: Record<string, unknown>,
  catalog: Pick<Catalog, 'byAppId'>,
): Omit<ReadingDraft, 'status'> {
  const { requested } = recorded;
  const textField = catalog.byAppId(requested.appId)?.record.textField ?? 'text';
  return {
    readingId: requested.readingId,
    appId: requested.appId,
    appName: requested.appName,
    firstName: requested.firstName,
    partnerName: partnerOf(requested.input),
    question: requested.question,
    input: requested.input,
    result: { ...facts, [textField]: '' },
    creditsCharged: requested.creditsCharged,
    createdAt: recorded.requestedAt,
    voiceUsed: recorded.state.voice.countedSessions > 0,
    textField,
  };
}
