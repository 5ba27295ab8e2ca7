import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLogoutMutation } from './authApi';
import { SESSION_ENDED_STATE } from './sessionEnd';

/**
 * Sign out everywhere and go to /auth, which then forgets every cached answer. A failed call
 * still signs out locally: the person asked to leave, and the server session expires anyway.
 */
export function useSignOut() {
  const [logout, { isLoading }] = useLogoutMutation();
  const navigate = useNavigate();

  const signOut = useCallback(async () => {
    try {
      await logout().unwrap();
    } catch (error) {
      console.error('Sign out failed; signing out locally', error);
    }
    navigate('/auth', { replace: true, state: SESSION_ENDED_STATE });
  }, [logout, navigate]);

  return { signOut, isSigningOut: isLoading };
}
