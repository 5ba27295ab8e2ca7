import { useLocation } from 'react-router';
import { authApi, useGetMeQuery } from './authApi';
import { hasSessionEnded } from './sessionEnd';

/** Spec: the balance badge is never stale for long; re-read the session (GET /api/session) every minute while signed in. */
export const ME_REFRESH_MS = 60_000;

/**
 * The shell's subscription to the current user: refetch on window focus, and poll while
 * signed in. Reading the cached state first lets the polling follow the sign-in state.
 */
export function useSessionRefresh() {
  const { data: cached } = authApi.endpoints.getMe.useQueryState();
  const { data, isLoading } = useGetMeQuery(undefined, {
    refetchOnFocus: true,
    pollingInterval: cached ? ME_REFRESH_MS : 0,
  });
  // Right after sign-out the cache still holds the old user for a moment; don't show it.
  const { state } = useLocation();
  return { me: hasSessionEnded(state) ? null : (data ?? null), isLoading };
}
