import { adminMessages } from '@astra/contracts';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { LoadingState } from '../../ui/LoadingState';
import { toaster } from '../../ui/toaster';
import { useCurrentUser } from '../auth/authApi';
import { signInUrlFor } from '../auth/signInParams';
import { AdminGate } from './AdminGate';
import { AdminPanel } from './AdminPanel';
import { useGetAdminSessionQuery } from './adminApi';

const ACCESS_TOAST_ID = 'admin-access';

/** Refusals are told once, however often React renders on the way out. */
function notifyOnce(title: string) {
  if (!toaster.isVisible(ACCESS_TOAST_ID)) {
    toaster.create({ id: ACCESS_TOAST_ID, type: 'error', title, closable: true });
  }
}

/** The admin panel for an admin whose session is unlocked; the password gate before that. */
function AdminArea() {
  const {
    data: session,
    isLoading,
    isError,
  } = useGetAdminSessionQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  useEffect(() => {
    if (isError) notifyOnce(adminMessages.verifyFailed);
  }, [isError]);

  if (isError) return <Navigate to="/app" replace />;
  if (isLoading || !session) return <LoadingState />;
  if (!session.unlocked) return <AdminGate />;
  return <AdminPanel unlockedUntil={session.unlockedUntil} />;
}

/**
 * /admin (spec §4 "Admin access"): signed out → /auth, signed in without the admin role → /app,
 * each with the spec's message; an admin sees the password gate, then the panel.
 */
export default function AdminPage() {
  const { me, isLoading, isError } = useCurrentUser();
  const refusal = me
    ? me.role === 'admin'
      ? null
      : adminMessages.accessDenied
    : isLoading
      ? null
      : isError
        ? adminMessages.verifyFailed
        : adminMessages.signInRequired;

  useEffect(() => {
    if (refusal) notifyOnce(refusal);
  }, [refusal]);

  if (!me && isLoading) return <LoadingState />;
  if (refusal === adminMessages.signInRequired) {
    return <Navigate to={signInUrlFor('/admin')} replace />;
  }
  if (refusal) return <Navigate to="/app" replace />;
  return <AdminArea />;
}
