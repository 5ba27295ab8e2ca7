import { buildCreateApi, coreModule, fetchBaseQuery } from '@reduxjs/toolkit/query';
import { reactHooksModule } from '@reduxjs/toolkit/query/react';

/**
 * Where a store's requests go. In the browser: `/api` of the page's own origin, with its cookies.
 * On the server, drawing a page (`entry-server.tsx`): the API's own address and the visitor's
 * Cookie header, so the page is drawn with what that visitor would be answered.
 */
export interface ApiOrigin {
  origin: string;
  cookie?: string;
}

const browserQuery = fetchBaseQuery({ baseUrl: '/api', credentials: 'same-origin' });

/** The server's queries, one base query per origin and cookie (a drawn page's store). */
const serverQueries = new WeakMap<ApiOrigin, typeof browserQuery>();
const serverQuery = (target: ApiOrigin) => {
  let query = serverQueries.get(target);
  if (!query) {
    query = fetchBaseQuery({
      baseUrl: `${target.origin}/api`,
      // A page waits for its drawing: an answer that does not come is an error the page shows.
      timeout: 5_000,
      prepareHeaders: (headers) => {
        if (target.cookie) headers.set('cookie', target.cookie);
        return headers;
      },
    });
    serverQueries.set(target, query);
  }
  return query;
};

/**
 * Drawn on the server, a page's queries start as it renders (not in effects, which the server
 * does not run): the drawing renders, waits for them, and renders again with their answers.
 */
const createAppApi = buildCreateApi(
  coreModule(),
  reactHooksModule({ unstable__sideEffectsInRender: import.meta.env.SSR }),
);

/** The action that gives a browser's store the answers its page was drawn with. */
export const DRAWN_STATE = 'app/drawnState';

/**
 * The one RTK Query API of the app. Features add their endpoints with `api.injectEndpoints`
 * so each screen's data code lives next to the screen and is code-split with it.
 */
export const api = createAppApi({
  reducerPath: 'api',
  baseQuery: (args, queryApi, extraOptions) => {
    const target = queryApi.extra as ApiOrigin | undefined;
    return (target ? serverQuery(target) : browserQuery)(args, queryApi, extraOptions);
  },
  extractRehydrationInfo: (action, { reducerPath }) =>
    (action as { type: string }).type === DRAWN_STATE
      ? (action as unknown as { payload: Record<string, never> }).payload[reducerPath]
      : undefined,
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
