import type { ReadingView } from '@astra/contracts';
import { skipToken } from '@reduxjs/toolkit/query';
import { describeApiError } from '../../../app/apiErrors';
import { READING_APPS } from '../readingCatalog';
import { useGetReadingQuery } from '../readingsApi';

export type SavedReading =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'found'; reading: ReadingView }
  /** The id belongs to another kind of reading: its own result page shows it. */
  | { status: 'elsewhere'; path: string }
  | { status: 'not-found' }
  | { status: 'error'; retry: () => void };

/** GET /api/readings/:id for a result page, so reloads and library links work. */
export function useSavedReading(readingId: string | null | undefined, appId: number): SavedReading {
  const { data, error, isFetching, refetch } = useGetReadingQuery(readingId || skipToken);
  if (!readingId) return { status: 'none' };
  if (data && data.readingId === readingId) {
    if (data.appId === appId) return { status: 'found', reading: data };
    const other = READING_APPS[data.appId];
    return other
      ? { status: 'elsewhere', path: other.resultPath(readingId) }
      : { status: 'not-found' };
  }
  if (isFetching || !error) return { status: 'loading' };
  const info = describeApiError(error);
  if (info.status === 404 || info.status === 400) return { status: 'not-found' };
  return { status: 'error', retry: () => void refetch() };
}
