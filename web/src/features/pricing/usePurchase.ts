import { checkoutConflictSchema, subscriptionMessages } from '@astra/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../app/api';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { notifyError, toaster } from '../../ui/toaster';
import { useCreateCheckoutMutation } from '../checkout/checkoutApi';
import { isSitePath, openCheckoutTab, showCheckoutInTab } from '../checkout/checkoutNavigation';
import { type PendingPurchase, savePendingPurchase } from './pendingPurchase';

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
 * Starting a checkout and going there: in `tab` (opened inside the click, so popup blockers
 * allow it) when there is one, else in this tab. When the session ended meanwhile (401), the
 * choice waits again for the next sign-in and `onSignedOut` asks for it.
 */
export function useStartCheckout(onSignedOut: () => void) {
  const [createCheckout] = useCreateCheckoutMutation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [busyKey, setBusyKey] = useState<string | null>(null);

  const startCheckout = async (purchase: PendingPurchase, tab: Window | null) => {
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
        dispatch(api.util.invalidateTags(['Me']));
        savePendingPurchase(purchase);
        onSignedOut();
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

  return { startCheckout, busyKey };
}

/**
 * Choosing a plan on /pricing: signed in, the checkout opens in a new tab; signed out, the
 * choice waits in session storage and the sign-in dialog opens. Whichever way the visitor then
 * signs in, `PendingPurchaseResume` picks the choice up.
 */
export function usePurchase(signedIn: boolean) {
  const [signInOpen, setSignInOpen] = useState(false);
  const { startCheckout, busyKey } = useStartCheckout(() => setSignInOpen(true));

  const askToSignIn = useCallback((purchase: PendingPurchase) => {
    savePendingPurchase(purchase);
    setSignInOpen(true);
  }, []);

  useEffect(() => {
    if (signedIn) setSignInOpen(false);
  }, [signedIn]);

  const choose = (purchase: PendingPurchase) => {
    if (signedIn) void startCheckout(purchase, openCheckoutTab());
    else askToSignIn(purchase);
  };

  /** Closing the dialog keeps the choice: signing in another way still resumes it. */
  const dismissSignIn = () => setSignInOpen(false);

  return { choose, busyKey, signInOpen: signInOpen && !signedIn, dismissSignIn };
}
