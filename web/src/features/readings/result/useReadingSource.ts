import type { ReadingView } from '@astra/contracts';
import { useMemo } from 'react';
import { type SavedReading, useSavedReading } from './useSavedReading';

export type ReadingSource<View> =
  | { status: 'found'; view: View; reading?: ReadingView }
  | Exclude<SavedReading, { status: 'found' } | { status: 'none' }>;

/**
 * What a result page shows: the saved reading by id (GET /api/readings/:id), or, when there is
 * no id or it is unknown, the spec's older link that carried the reading in its query.
 */
export function useReadingSource<View>(
  readingId: string | null | undefined,
  appId: number,
  fromReading: (reading: ReadingView) => View | null,
  legacy: View | null,
): ReadingSource<View> {
  const saved = useSavedReading(readingId, appId);
  const reading = saved.status === 'found' ? saved.reading : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the parser is fixed per page
  const view = useMemo(() => (reading ? fromReading(reading) : null), [reading]);

  switch (saved.status) {
    case 'found':
      return view ? { status: 'found', view, reading: saved.reading } : { status: 'not-found' };
    case 'none':
    case 'not-found':
      return legacy ? { status: 'found', view: legacy } : { status: 'not-found' };
    case 'error':
      return legacy ? { status: 'found', view: legacy } : saved;
    default:
      return saved;
  }
}
