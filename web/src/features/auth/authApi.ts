import type { AuthProviders, DevLoginRequest, Me, Session } from '@astra/contracts';
import { api } from '../../app/api';

/**
 * Sign-in state and the current user. `getMe` asks `GET /api/session`, which answers a visitor
 * `200 {user: null}`: no 401 in the console of every public page (`/api/me` keeps its 401 for
 * API clients).
 */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<Me | null, void>({
      query: () => '/session',
      transformResponse: (session: Session) => session.user,
      providesTags: ['Me'],
    }),
    getAuthProviders: build.query<AuthProviders, void>({
      query: () => '/auth/providers',
      providesTags: ['AuthProviders'],
    }),
    devLogin: build.mutation<Me, DevLoginRequest>({
      query: (body) => ({ url: '/auth/dev-login', method: 'POST', body }),
      // A new session: the answer is the new current user, and their history is new too.
      invalidatesTags: ['Ledger'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(authApi.util.upsertQueryData('getMe', undefined, data));
        } catch {
          // the caller shows the error
        }
      },
    }),
    logout: build.mutation<{ ok: boolean }, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
  }),
});

export const { useGetMeQuery, useGetAuthProvidersQuery, useDevLoginMutation, useLogoutMutation } =
  authApi;

/** The balance the server answered with, in the header's badge at once (before `Me` refetches). */
export function showBalance(dispatch: (action: unknown) => unknown, remainingCredits: number) {
  dispatch(
    authApi.util.updateQueryData('getMe', undefined, (me) => {
      if (me) me.remainingCredits = remainingCredits;
    }),
  );
}

/** When the providers list cannot be read, offer Google, the product's main sign-in. */
export const FALLBACK_AUTH_PROVIDERS: AuthProviders = { google: true, apple: false, dev: false };

/** The current user for components below a protected route (or null when signed out). */
export function useCurrentUser() {
  const { data, isLoading, isError, refetch } = useGetMeQuery();
  return { me: data ?? null, isLoading, isError, refetch };
}
