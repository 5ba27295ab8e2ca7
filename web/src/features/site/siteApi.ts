import type { SiteInfo } from '@astra/contracts';
import { api } from '../../app/api';

/** The operator's details, support address and social links: the server's configuration. */
export const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSite: build.query<SiteInfo, void>({ query: () => '/site' }),
  }),
});

export const { useGetSiteQuery } = siteApi;
