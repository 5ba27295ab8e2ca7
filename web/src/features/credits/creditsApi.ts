import type { LedgerPage } from '@astra/contracts';
import { api } from '../../app/api';

export const creditsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * One page (50 entries, newest first) of the signed-in user's credit ledger: only the
     * changes, without bookkeeping entries of 0 credits (the admin audit shows those).
     */
    getLedger: build.query<LedgerPage, number>({
      query: (page) => ({ url: '/me/ledger', params: { page, changesOnly: 'true' } }),
      providesTags: ['Ledger'],
    }),
  }),
});

export const { useGetLedgerQuery } = creditsApi;
