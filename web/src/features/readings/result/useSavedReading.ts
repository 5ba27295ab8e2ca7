import type { ReadingKind, ReadingStreamFailed, ReadingView } from '@astra/contracts';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { describeApiError } from '../../../app/apiErrors';
import { useStartAtOnce } from '../../../app/drawing';
import { READINGS, readingOfApp } from '../readingCatalog';
import { useGetReadingQuery, useReadingStreamQuery } from '../readingsApi';

export type SavedReading =
  | { status: 'none' }
  | { status: 'loading' }
  /**
   * `live`: the reading as its stream shows it (the text may still be coming); without, the
   * saved reading (GET /api/readings/:id).
   */
  | { status: 'found'; reading: ReadingView; live?: { writing: boolean; reconnecting: boolean } }
  /** The id belongs to another kind of reading: its own result page shows it. */
  | { status: 'elsewhere'; path: string }
  | { status: 'not-found' }
  /** The writing failed; its credits were given back. */
  | { status: 'failed'; failure: ReadingStreamFailed; formPath: string }
  | { status: 'error'; retry: () => void };

/** The navigation state of a result page opened right after its reading was started. */
export const WRITING_STATE = { writing: true } as const;
const startedJustNow = (state: unknown) =>
  (state as { writing?: unknown } | null)?.writing === true;

/**
 * A result page's reading: the saved one (GET /api/readings/:id), so reloads and library links
 * work; and while it is being written (just started, or not saved yet), its event stream, which
 * shows the facts at once and the text as it comes.
 */
export function useSavedReading(
  readingId: string | null | undefined,
  slug: ReadingKind,
): SavedReading {
  const { state } = useLocation();
  const [unsaved, setUnsaved] = useState<string | null>(null);
  const follow = !!readingId && (startedJustNow(state) || unsaved === readingId);
  const live = useReadingStreamQuery(follow ? readingId : skipToken).data;
  const streamOver =
    live?.status === 'completed' || live?.status === 'failed' || live?.status === 'closed';
  // A reading just started is not saved yet: asked for once its stream is over.
  const { data, error, isFetching, refetch } = useGetReadingQuery(
    readingId && (!follow || streamOver) ? readingId : skipToken,
  );
  const missing = !!error && describeApiError(error).status === 404;
  // Not saved yet: drawn on the server, the page shows what the app will follow at once.
  useStartAtOnce(missing);
  useEffect(() => {
    // Not saved (yet): it may be being written; its stream tells.
    if (missing && readingId) setUnsaved(readingId);
  }, [missing, readingId]);

  if (!readingId) return { status: 'none' };
  const isThisKind = (reading: ReadingView) => readingOfApp(reading.appId)?.slug === slug;
  const elsewhere = (other: ReadingView): SavedReading => {
    const kind = readingOfApp(other.appId);
    return kind
      ? { status: 'elsewhere', path: kind.resultPath(readingId) }
      : { status: 'not-found' };
  };
  if (data && data.readingId === readingId)
    return isThisKind(data) ? { status: 'found', reading: data } : elsewhere(data);
  if (follow && live) {
    if (live.status === 'failed' && live.failure)
      return {
        status: 'failed',
        failure: live.failure,
        formPath: READINGS[slug].formPath,
      };
    if (live.reading) {
      if (!isThisKind(live.reading)) return elsewhere(live.reading);
      return {
        status: 'found',
        reading: live.reading,
        live: { writing: live.status === 'writing', reconnecting: live.reconnecting },
      };
    }
    if (live.status === 'connecting') return { status: 'loading' };
  }
  if (isFetching || !error) return { status: 'loading' };
  if (missing || describeApiError(error).status === 400) return { status: 'not-found' };
  return { status: 'error', retry: () => void refetch() };
}
