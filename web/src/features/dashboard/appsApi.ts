import type { AppView } from '@astra/contracts';
import { api } from '../../app/api';

export const appsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getApps: build.query<AppView[], void>({
      query: () => '/apps',
      transformResponse: (response: { items: AppView[] }) => response.items,
      providesTags: ['Apps'],
    }),
  }),
});

export const { useGetAppsQuery } = appsApi;
