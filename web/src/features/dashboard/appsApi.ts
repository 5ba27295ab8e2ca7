import type { AppsResponse, AppView } from '@astra/contracts';
import { api } from '../../app/api';

export const appsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCatalog: build.query<AppsResponse, void>({
      query: () => '/apps',
      providesTags: ['Apps'],
    }),
  }),
});

/** The reading apps with their live costs (one request, shared with the welcome grant). */
export function useGetAppsQuery() {
  const catalog = appsApi.useGetCatalogQuery();
  return { ...catalog, data: catalog.data?.items as AppView[] | undefined };
}

/** The reading apps and the free credits a new account gets, as the server says. */
export const useGetCatalogQuery = appsApi.useGetCatalogQuery;
