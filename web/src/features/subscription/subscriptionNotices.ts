import { subscriptionMessages } from '@astra/contracts';
import { notifyError, SUCCESS_TOAST_MS, toaster } from '../../ui/toaster';

/** Spec §9 toast durations. */
export const REFRESHED_TOAST_MS = SUCCESS_TOAST_MS;
export const CANCELLED_TOAST_MS = 8000;
export const CREDITS_AVAILABLE_TOAST_MS = 10_000;

/** The 'Credits Available!' offer's toast id: a refresh started anywhere takes it away. */
export const CREDITS_AVAILABLE_TOAST_ID = 'credits-available';

/** Refresh and cancellation are for active subscribers only (spec §5). */
export const notifyNotAvailable = (message?: string) =>
  notifyError(
    subscriptionMessages.notAvailable,
    message ?? 'Only an active subscription can be refreshed or cancelled.',
  );

export const notifySubscriptionSuccess = (title: string, message: string, duration: number) =>
  toaster.create({ type: 'success', title, description: message, duration, closable: true });

/** Informational answers such as 'Your next renewal is in 12 days on …'. */
export const notifySubscriptionInfo = (message: string) =>
  toaster.create({ type: 'info', title: message, closable: true });
