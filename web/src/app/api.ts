import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * The one RTK Query API of the app. Features add their endpoints with `api.injectEndpoints`
 * so each screen's data code lives next to the screen and is code-split with it.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({ baseUrl: '/api', credentials: 'same-origin' }),
  tagTypes: [
    'Me',
    'Ledger',
    'Apps',
    'AuthProviders',
    'Library',
    'Reading',
    'Subscription',
    'Voice',
  ],
  endpoints: () => ({}),
});

/** Tags every credit-changing mutation invalidates: the balance badge and the history. */
export const CREDIT_TAGS = ['Me', 'Ledger'] as const;

/** Tags every money-moving mutation invalidates (payments, refreshes, cancellations). */
export const MONEY_TAGS = [...CREDIT_TAGS, 'Subscription'] as const;

/** Every page of the library: a new or deleted reading changes them all (their items move). */
export const LIBRARY_LIST_TAG = { type: 'Library', id: 'LIST' } as const;

/** One reading's row in the library: what changes only that reading (its voice guide). */
export const libraryItemTag = (readingId: string) => ({ type: 'Library' as const, id: readingId });

/** Tags a new reading invalidates: the credits it spent and the library that now holds it. */
export const READING_CREATED_TAGS = [...CREDIT_TAGS, LIBRARY_LIST_TAG] as const;
