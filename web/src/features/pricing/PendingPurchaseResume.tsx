import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { useGetMeQuery } from '../auth/authApi';
import { readPendingPurchase } from './pendingPurchase';

// The checkout code is fetched only when a choice waits.
const ResumePendingPurchase = lazy(() => import('./ResumePendingPurchase'));

/** Signing in and onboarding are finished first; the purchase waits until then. */
const WAITING_PATHS = ['/auth', '/onboarding'];

/**
 * The one place that resumes a plan chosen before signing in (spec §4), on whatever page the
 * sign-in lands: the pricing dialog, /auth with Google or the developer sign-in, and after
 * onboarding for a new member.
 */
export function PendingPurchaseResume() {
  const { data: me } = useGetMeQuery();
  const { pathname } = useLocation();
  const waiting = WAITING_PATHS.some(
    (path) => pathname === path || pathname.startsWith(`${path}/`),
  );
  if (!me || waiting || !readPendingPurchase()) return null;
  return (
    <Suspense fallback={null}>
      <ResumePendingPurchase />
    </Suspense>
  );
}
