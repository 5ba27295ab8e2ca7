import type { ReadingKind } from '@astra/contracts';
import { useGetAppsQuery } from '../../dashboard/appsApi';
import { recordedCost } from '../readingCatalog';

/** The kind's credit cost from GET /api/apps; its record's price while it loads or if it fails. */
export function useReadingCost(slug: ReadingKind): number {
  const { data: apps } = useGetAppsQuery();
  return apps?.find((app) => app.slug === slug)?.creditCost ?? recordedCost(slug);
}
