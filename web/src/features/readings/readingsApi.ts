import type {
  ReadingDraft,
  ReadingKind,
  ReadingRequestBody,
  ReadingStarted,
  ReadingStreamEventName,
  ReadingStreamFailed,
  ReadingTextChunk,
  ReadingView,
} from '@astra/contracts';
import { api, CREDIT_TAGS, READING_CREATED_TAGS } from '../../app/api';
import { showBalance } from '../auth/authApi';

/** One POST /api/readings/{kind}/start per reading; the body is the contract's request schema. */
export type ReadingRequest = {
  [Kind in ReadingKind]: { kind: Kind; body: ReadingRequestBody<Kind> };
}[ReadingKind];

/** A reading as its event stream shows it: while its text is written, and once it is done. */
export interface LiveReading {
  /**
   * `connecting` until the first event; `writing` while the text comes; `completed` and
   * `failed` at the end; `closed` when the stream was refused or given up (the saved reading,
   * or its absence, tells the rest).
   */
  status: 'connecting' | 'writing' | 'completed' | 'failed' | 'closed';
  /** The reading with its facts and the text so far. */
  reading: ReadingView | null;
  /** The connection was lost; the browser reconnects and carries on where it was. */
  reconnecting: boolean;
  failure: ReadingStreamFailed | null;
}

const streamPath = (readingId: string) => `/api/readings/${encodeURIComponent(readingId)}/stream`;

export const readingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Spends the app's credits and answers at once with the reading's facts (chart, cards,
     * numbers), which its stream's cache entry starts from; the text follows on the stream. One
     * Idempotency-Key per submit: a retried request never charges twice.
     */
    startReading: build.mutation<ReadingStarted, ReadingRequest & { idempotencyKey: string }>({
      query: ({ kind, body, idempotencyKey }) => ({
        url: `/readings/${kind}/start`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: [...CREDIT_TAGS],
      async onQueryStarted(_request, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          showBalance(dispatch, data.remainingCredits);
          // The result page shows the facts at once; its stream brings the text.
          const {
            textField: _field,
            remainingCredits: _balance,
            stream: _stream,
            ...reading
          } = data;
          dispatch(
            readingsApi.util.upsertQueryData('readingStream', data.readingId, {
              status: 'writing',
              reading,
              reconnecting: false,
              failure: null,
            }),
          );
        } catch {
          // the form shows the error
        }
      },
    }),
    /** A saved reading is never edited, so the cached copy holds until it is deleted. */
    getReading: build.query<ReadingView, string>({
      query: (readingId) => `/readings/${encodeURIComponent(readingId)}`,
      providesTags: (_result, _error, readingId) => [{ type: 'Reading', id: readingId }],
    }),
    /**
     * GET /api/readings/:id/stream in an EventSource: the facts, then the text as it is written
     * (an EventSource reconnects by itself, from the last piece it had), then the end.
     */
    readingStream: build.query<LiveReading, string>({
      queryFn: () => ({
        data: { status: 'connecting', reading: null, reconnecting: false, failure: null },
      }),
      keepUnusedDataFor: 10,
      async onCacheEntryAdded(
        readingId,
        { updateCachedData, cacheDataLoaded, cacheEntryRemoved, dispatch },
      ) {
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        // A page drawn on the server shows the reading as saved; the browser follows the stream.
        if (typeof EventSource === 'undefined') return;
        const source = new EventSource(streamPath(readingId));
        let textField = 'text';
        let text = '';
        const on = <T>(name: ReadingStreamEventName, handle: (data: T) => void) =>
          source.addEventListener(name, (event) =>
            handle(JSON.parse((event as MessageEvent).data)),
          );

        on<ReadingDraft>('reading', ({ textField: field, status: _status, ...reading }) => {
          textField = field;
          updateCachedData((live) => {
            // The text stays as it was: after a reconnection it goes on from there.
            live.reading = { ...reading, result: { ...reading.result, [textField]: text } };
            live.status = 'writing';
            live.reconnecting = false;
          });
        });
        on<ReadingTextChunk>('text', (piece) => {
          text = text.slice(0, piece.offset) + piece.text;
          updateCachedData((live) => {
            if (live.reading) live.reading.result[textField] = text;
          });
        });
        on<{ result: Record<string, unknown> }>('done', ({ result }) => {
          source.close();
          updateCachedData((live) => {
            if (live.reading) live.reading.result = result;
            live.status = 'completed';
            live.reconnecting = false;
          });
          // Recorded: the saved reading and the library have it now.
          dispatch(
            api.util.invalidateTags([...READING_CREATED_TAGS, { type: 'Reading', id: readingId }]),
          );
        });
        on<ReadingStreamFailed>('failed', (failure) => {
          source.close();
          updateCachedData((live) => {
            live.status = 'failed';
            live.failure = failure;
            live.reconnecting = false;
          });
          // Its credits were given back.
          dispatch(api.util.invalidateTags([...CREDIT_TAGS]));
        });
        source.addEventListener('error', () => {
          const closed = source.readyState === EventSource.CLOSED;
          updateCachedData((live) => {
            if (live.status === 'completed' || live.status === 'failed') return;
            if (closed) live.status = 'closed';
            else live.reconnecting = true;
          });
        });

        await cacheEntryRemoved;
        source.close();
      },
    }),
  }),
});

export const { useStartReadingMutation, useGetReadingQuery, useReadingStreamQuery } = readingsApi;
