import type { LibraryPage } from '@astra/contracts';
import { api, LIBRARY_LIST_TAG, libraryItemTag } from '../../app/api';

export interface LibraryQuery {
  search: string;
  appId: number | null;
  page: number;
}

export const libraryApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page (25) of the user's saved readings, newest first. */
    getLibrary: build.query<LibraryPage, LibraryQuery>({
      query: ({ search, appId, page }) => ({
        url: '/library',
        params: {
          page,
          ...(search ? { search } : {}),
          ...(appId ? { appId } : {}),
        },
      }),
      // The list tag for what changes every page (a new reading, a deletion moves the pages);
      // a tag per reading for what changes one reading (its voice guide).
      providesTags: (page) => [
        LIBRARY_LIST_TAG,
        ...(page?.items ?? []).map(({ readingId }) => libraryItemTag(readingId)),
      ],
    }),
    /**
     * The reading leaves every cached page at once and comes back if the server refuses; either
     * way the pages are fetched again afterwards (the ones after it move up by one).
     */
    deleteReading: build.mutation<{ ok: boolean }, string>({
      query: (readingId) => ({
        url: `/readings/${encodeURIComponent(readingId)}`,
        method: 'DELETE',
      }),
      async onQueryStarted(readingId, { dispatch, getState, queryFulfilled }) {
        const pages = libraryApi.util
          .selectInvalidatedBy(getState(), [libraryItemTag(readingId)])
          .filter(({ endpointName }) => endpointName === 'getLibrary');
        const patches = pages.map(({ originalArgs }) =>
          dispatch(
            libraryApi.util.updateQueryData('getLibrary', originalArgs, (page) => {
              page.items = page.items.filter((item) => item.readingId !== readingId);
              page.total -= 1;
            }),
          ),
        );
        try {
          await queryFulfilled;
        } catch {
          for (const patch of patches) patch.undo();
        }
      },
      invalidatesTags: (_result, _error, readingId) => [
        LIBRARY_LIST_TAG,
        { type: 'Reading', id: readingId },
      ],
    }),
  }),
});

export const { useGetLibraryQuery, useDeleteReadingMutation } = libraryApi;
