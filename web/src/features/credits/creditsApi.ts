import type { LedgerPage } from '@astra/contracts';
import { api } from '../../app/api';

export const creditsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page (50 entries, newest first) of the signed-in user's credit ledger. */
    getLedger: build.query<LedgerPage, number>({
      query: (page) => ({ url: '/me/ledger', params: { page } }),
      providesTags: ['Ledger'],
    }),
  }),
});

export const { useGetLedgerQuery } = creditsApi;
