import type { LibraryPage } from '@astra/contracts';
import { api } from '../../app/api';

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
      providesTags: ['Library'],
    }),
    deleteReading: build.mutation<{ ok: boolean }, string>({
      query: (readingId) => ({
        url: `/readings/${encodeURIComponent(readingId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, readingId) => [
        'Library',
        { type: 'Reading', id: readingId },
      ],
    }),
  }),
});

export const { useGetLibraryQuery, useDeleteReadingMutation } = libraryApi;
