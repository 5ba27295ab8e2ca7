import { subscriptionMessages } from '@astra/contracts';
import { describeApiError } from '../../app/apiErrors';
import { notifyError } from '../../ui/toaster';
import { useCancelSubscriptionMutation } from './subscriptionApi';
import {
  CANCELLED_TOAST_MS,
  notifyNotAvailable,
  notifySubscriptionSuccess,
} from './subscriptionNotices';

/** Spec §4 cancellation, with the spec's messages; resolves true when it went through. */
export function useCancelSubscription() {
  const [cancelSubscription, { isLoading }] = useCancelSubscriptionMutation();

  const cancel = async (active: boolean): Promise<boolean> => {
    if (!active) {
      notifyNotAvailable();
      return false;
    }
    try {
      const { message } = await cancelSubscription({ reason: 'user_requested' }).unwrap();
      notifySubscriptionSuccess(subscriptionMessages.cancelled, message, CANCELLED_TOAST_MS);
      return true;
    } catch (failure) {
      const info = describeApiError(failure);
      if (info.code === 'no_active_subscription') {
        notifyNotAvailable(info.message);
      } else if (typeof info.status === 'number') {
        notifyError(
          subscriptionMessages.cancellationFailed,
          info.message ?? subscriptionMessages.cancellationFailedDefault,
        );
      } else {
        notifyError(
          subscriptionMessages.cancellationFailed,
          subscriptionMessages.cancellationFailedRetry,
        );
      }
      return false;
    }
  };

  return { cancel, isCancelling: isLoading };
}
