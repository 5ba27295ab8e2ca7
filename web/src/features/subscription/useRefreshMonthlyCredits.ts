import { subscriptionMessages } from '@astra/contracts';
import { describeApiError } from '../../app/apiErrors';
import { notifyError, toaster } from '../../ui/toaster';
import { useRefreshMonthlyCreditsMutation } from './subscriptionApi';
import {
  CREDITS_AVAILABLE_TOAST_ID,
  notifyNotAvailable,
  notifySubscriptionInfo,
  notifySubscriptionSuccess,
  REFRESHED_TOAST_MS,
} from './subscriptionNotices';

/** One refresh at a time, wherever it is started (the card or the 'Credits Available!' toast). */
const REFRESH_CACHE_KEY = 'monthly-credit-refresh';

/** Spec §4 manual refresh of the month's credits, with the spec's messages. */
export function useRefreshMonthlyCredits() {
  const [refreshCredits, { isLoading }] = useRefreshMonthlyCreditsMutation({
    fixedCacheKey: REFRESH_CACHE_KEY,
  });

  const refresh = async (active: boolean) => {
    if (!active) {
      notifyNotAvailable();
      return;
    }
    toaster.dismiss(CREDITS_AVAILABLE_TOAST_ID);
    try {
      const { message } = await refreshCredits().unwrap();
      notifySubscriptionSuccess(subscriptionMessages.refreshed, message, REFRESHED_TOAST_MS);
    } catch (failure) {
      const info = describeApiError(failure);
      if (info.code === 'refresh_not_due' && info.message) {
        notifySubscriptionInfo(info.message);
      } else if (info.code === 'no_active_subscription') {
        notifyNotAvailable(info.message);
      } else {
        const answered = typeof info.status === 'number';
        notifyError(
          subscriptionMessages.refreshFailed,
          (answered && info.message) || subscriptionMessages.refreshFailedRetry,
        );
      }
    }
  };

  return { refresh, isRefreshing: isLoading };
}
