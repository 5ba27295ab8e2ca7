import { useGetAppsQuery } from '../../dashboard/appsApi';
import { READING_APPS } from '../readingCatalog';

/** The app's credit cost from GET /api/apps; the spec's default while it loads or if it fails. */
export function useReadingCost(appId: number): number {
  const { data: apps } = useGetAppsQuery();
  return apps?.find((app) => app.appId === appId)?.creditCost ?? READING_APPS[appId]!.defaultCost;
}
