import { type Me, subscriptionMessages } from '@astra/contracts';
import { useEffect, useRef } from 'react';
import { api } from '../../app/api';
import { useStartAtOnce } from '../../app/drawing';
import { useAppDispatch } from '../../app/hooks';
import { notifyError, toaster } from '../../ui/toaster';
import { useGetSubscriptionQuery } from './subscriptionApi';
import { CREDITS_AVAILABLE_TOAST_ID, CREDITS_AVAILABLE_TOAST_MS } from './subscriptionNotices';
import { useRefreshMonthlyCredits } from './useRefreshMonthlyCredits';

/** Spec §9: subscribers' status is checked again every 10 minutes. */
export const SUBSCRIPTION_RECHECK_MS = 10 * 60_000;
/** Spec §4: about 100 ms after sign-in, the credit refresh eligibility is checked. */
export const ELIGIBILITY_CHECK_DELAY_MS = 100;

/** 'Credits Available!' shows once per browser session and user. */
const NOTIFIED_KEY = 'creditsAvailableNotified';

function alreadyNotified(userId: string): boolean {
  try {
    return window.sessionStorage.getItem(NOTIFIED_KEY) === userId;
  } catch {
    return false;
  }
}

function markNotified(userId: string) {
  try {
    window.sessionStorage.setItem(NOTIFIED_KEY, userId);
  } catch {
    // it may show once more after a reload
  }
}

/**
 * Mounted by the header for subscribers (loaded on demand): re-checks the subscription every
 * 10 minutes, and offers the month's credits once when they are due.
 */
export default function SubscriptionWatcher({ me }: { me: Me }) {
  // The month's credits are due: on a page drawn by the server, the offer shows as it arrives.
  useStartAtOnce(me.subscription?.needsRefresh === true);
  const dispatch = useAppDispatch();
  const { data, isError } = useGetSubscriptionQuery(undefined, {
    pollingInterval: SUBSCRIPTION_RECHECK_MS,
    skipPollingIfUnfocused: false,
  });
  const { refresh, isRefreshing } = useRefreshMonthlyCredits();

  const failedBefore = useRef(false);
  useEffect(() => {
    if (isError && !failedBefore.current) notifyError(subscriptionMessages.checkStatusFailed);
    failedBefore.current = isError;
  }, [isError]);

  // The re-check saw another state than the header holds: read the current user again.
  const checkedStatus = data?.subscriptionStatus ?? null;
  const checkedNeedsRefresh = data?.needsRefresh ?? null;
  const knownStatus = me.subscription?.status ?? null;
  const knownNeedsRefresh = me.subscription?.needsRefresh ?? null;
  useEffect(() => {
    if (checkedNeedsRefresh === null) return;
    if (checkedStatus !== knownStatus || checkedNeedsRefresh !== knownNeedsRefresh) {
      dispatch(api.util.invalidateTags(['Me']));
    }
  }, [checkedStatus, checkedNeedsRefresh, knownStatus, knownNeedsRefresh, dispatch]);

  const latest = useRef({ me, isRefreshing, refresh });
  useEffect(() => {
    latest.current = { me, isRefreshing, refresh };
  });

  useEffect(() => {
    if (alreadyNotified(me.id)) return;
    const timer = window.setTimeout(() => {
      const { me: current, isRefreshing: refreshing, refresh: run } = latest.current;
      const subscription = current.subscription;
      if (!subscription?.needsRefresh || subscription.status !== 'active' || refreshing) return;
      markNotified(current.id);
      toaster.create({
        id: CREDITS_AVAILABLE_TOAST_ID,
        type: 'info',
        title: subscriptionMessages.creditsAvailable,
        description: `Your ${subscription.tierName} credits for this month are ready.`,
        duration: CREDITS_AVAILABLE_TOAST_MS,
        closable: true,
        action: {
          label: subscriptionMessages.refreshNow,
          onClick: () => void run(latest.current.me.subscription?.status === 'active'),
        },
      });
    }, ELIGIBILITY_CHECK_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [me.id]);

  return null;
}
