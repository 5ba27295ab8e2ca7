import type { ReadingKind, ReadingView } from '@astra/contracts';
import { useMemo } from 'react';
import { type SavedReading, useSavedReading } from './useSavedReading';

export type ReadingSource<View> =
  | {
      status: 'found';
      view: View;
      /** The saved reading (none while it is written, or for an old link's query). */
      reading?: ReadingView;
      /** Its text is still being written (and the connection, if lost, being resumed). */
      live?: { writing: boolean; reconnecting: boolean };
    }
  | Exclude<SavedReading, { status: 'found' } | { status: 'none' }>;

/**
 * What a result page shows: the reading by id (saved, or as its stream shows it while it is
 * written), or, when there is no id or it is unknown, the spec's older link that carried the
 * reading in its query.
 */
export function useReadingSource<View>(
  readingId: string | null | undefined,
  slug: ReadingKind,
  fromReading: (reading: ReadingView) => View | null,
  legacy: View | null,
): ReadingSource<View> {
  const saved = useSavedReading(readingId, slug);
  const reading = saved.status === 'found' ? saved.reading : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the parser is fixed per page
  const view = useMemo(() => (reading ? fromReading(reading) : null), [reading]);

  switch (saved.status) {
    case 'found':
      if (!view) return { status: 'not-found' };
      return saved.live
        ? { status: 'found', view, live: saved.live }
        : { status: 'found', view, reading: saved.reading };
    case 'none':
    case 'not-found':
      return legacy ? { status: 'found', view: legacy } : { status: 'not-found' };
    case 'error':
      return legacy ? { status: 'found', view: legacy } : saved;
    default:
      return saved;
  }
}
