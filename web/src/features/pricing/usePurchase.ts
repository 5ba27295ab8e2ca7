import { checkoutConflictSchema, subscriptionMessages } from '@astra/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../app/api';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { notifyError, toaster } from '../../ui/toaster';
import { useCreateCheckoutMutation } from '../checkout/checkoutApi';
import { isSitePath, openCheckoutTab, showCheckoutInTab } from '../checkout/checkoutNavigation';
import {
  clearPendingPurchase,
  type PendingPurchase,
  readPendingPurchase,
  rememberSignInTarget,
  savePendingPurchase,
} from './pendingPurchase';

/** Spec §9: a purchase chosen before signing in resumes 500 ms after returning signed in. */
export const PENDING_PURCHASE_RESUME_MS = 500;

export const purchaseKey = ({ tierId, isSubscription }: PendingPurchase) =>
  `${tierId}:${isSubscription ? 'subscription' : 'one_time'}`;

/** A 409 from POST /api/checkout: a plan already runs, or its checkout is still open. */
function checkoutConflict(failure: unknown) {
  if (typeof failure !== 'object' || failure === null || !('status' in failure)) return null;
  if (failure.status !== 409 || !('data' in failure)) return null;
  const parsed = checkoutConflictSchema.safeParse(failure.data);
  return parsed.success ? parsed.data : null;
}

/**
 * Choosing a plan: signed in, the checkout opens in a new tab (opened inside the click, so
 * popup blockers allow it); signed out, the choice waits in session storage and the sign-in
 * dialog opens. Back on /pricing signed in, a waiting choice resumes in this tab.
 */
export function usePurchase(signedIn: boolean) {
  const [createCheckout] = useCreateCheckoutMutation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const [signInOpen, setSignInOpen] = useState(false);

  const askToSignIn = useCallback((purchase: PendingPurchase) => {
    savePendingPurchase(purchase);
    rememberSignInTarget('/pricing');
    setSignInOpen(true);
  }, []);

  const checkout = async (purchase: PendingPurchase, resumed: boolean) => {
    // A resumed purchase has no click to open a tab with: it continues in this tab.
    const tab = resumed ? null : openCheckoutTab();
    setBusyKey(purchaseKey(purchase));
    const go = (url: string) => {
      if (tab && showCheckoutInTab(tab, url)) return;
      if (isSitePath(url)) navigate(url);
      else window.location.assign(url);
    };
    try {
      const { url } = await createCheckout(purchase).unwrap();
      go(url);
    } catch (failure) {
      const conflict = checkoutConflict(failure);
      if (conflict?.error === 'checkout_in_progress' && conflict.url) {
        // Paying twice is what the server refused: the open checkout is the one to finish.
        toaster.create({
          type: 'info',
          title: 'Your checkout is still open',
          description: conflict.message,
          closable: true,
        });
        go(conflict.url);
        return;
      }
      tab?.close();
      if (conflict) {
        notifyError('You already have a plan', conflict.message);
        dispatch(api.util.invalidateTags(['Me']));
        return;
      }
      const info = describeApiError(failure);
      if (info.status === 401) {
        // The session ended meanwhile: sign in again, then the purchase resumes.
        dispatch(api.util.invalidateTags(['Me']));
        askToSignIn(purchase);
        return;
      }
      console.error('Checkout could not be started', failure);
      notifyError(
        info.status === 'unknown'
          ? subscriptionMessages.unexpected
          : subscriptionMessages.checkoutFailed,
      );
    } finally {
      setBusyKey(null);
    }
  };

  const latestCheckout = useRef(checkout);
  useEffect(() => {
    latestCheckout.current = checkout;
  });

  useEffect(() => {
    if (!signedIn) return;
    setSignInOpen(false);
    const pending = readPendingPurchase();
    if (!pending) return;
    const timer = window.setTimeout(() => {
      clearPendingPurchase();
      void latestCheckout.current(pending, true);
    }, PENDING_PURCHASE_RESUME_MS);
    return () => window.clearTimeout(timer);
  }, [signedIn]);

  const choose = (purchase: PendingPurchase) => {
    if (signedIn) void checkout(purchase, false);
    else askToSignIn(purchase);
  };

  /** Dismissing the dialog without signing in drops the waiting choice. */
  const dismissSignIn = () => {
    setSignInOpen(false);
    clearPendingPurchase();
  };

  return { choose, busyKey, signInOpen: signInOpen && !signedIn, dismissSignIn };
}
