import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { signInUrlFor } from '../auth/signInParams';
import { takePendingPurchase } from './pendingPurchase';
import { useStartCheckout } from './usePurchase';

/** Spec §4: a purchase chosen before signing in resumes 500 ms after returning signed in. */
export const PENDING_PURCHASE_RESUME_MS = 500;

/**
 * Resumes the waiting choice in this tab (there is no click to open another with). It is taken
 * out of storage first, so it resumes once: a cancelled checkout does not come back.
 */
export default function ResumePendingPurchase() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { startCheckout } = useStartCheckout(() => navigate(signInUrlFor(pathname)));
  const latestStart = useRef(startCheckout);
  useEffect(() => {
    latestStart.current = startCheckout;
  });

  useEffect(() => {
    const timer = window.setTimeout(() => {
      const pending = takePendingPurchase();
      if (pending) void latestStart.current(pending, null);
    }, PENDING_PURCHASE_RESUME_MS);
    return () => window.clearTimeout(timer);
  }, []);

  return null;
}
