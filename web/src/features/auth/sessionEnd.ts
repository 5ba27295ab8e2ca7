import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';

/**
 * Ending a session (sign-out, account deletion) navigates with this history state and lets the
 * destination page clear the cache. Clearing it first would let the protected page being left
 * see "signed out" and redirect to /auth with a returnUrl before the navigation lands.
 */
export const SESSION_ENDED_STATE = { sessionEnded: true } as const;

export function hasSessionEnded(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'sessionEnded' in state;
}

/**
 * On the page a session ended on: forget every cached answer once, then drop the marker from
 * history so a reload or Back does not repeat it.
 */
export function useSessionEndedArrival(): boolean {
  const { state, pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const ended = hasSessionEnded(state);
  useEffect(() => {
    if (!ended) return;
    dispatch(api.util.resetApiState());
    navigate({ pathname, search, hash }, { replace: true, state: null });
  }, [ended, dispatch, navigate, pathname, search, hash]);
  return ended;
}
