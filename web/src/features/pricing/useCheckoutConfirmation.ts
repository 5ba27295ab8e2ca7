import { useEffect, useState } from 'react';
import { api, MONEY_TAGS } from '../../app/api';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { useGetCheckoutStatusQuery } from '../checkout/checkoutApi';

/** Ask about every second whether the payment's webhook has landed, for up to a minute. */
export const CONFIRMATION_POLL_MS = 1000;
export const CONFIRMATION_TIMEOUT_MS = 60_000;

/**
 * Follows a checkout session after the payment page sent the buyer back: 'processing' until
 * the webhook granted the credits, then the balance everywhere is read again.
 */
export function useCheckoutConfirmation(sessionId: string | null) {
  const dispatch = useAppDispatch();
  const [deadline, setDeadline] = useState(() => Date.now() + CONFIRMATION_TIMEOUT_MS);
  const [timedOut, setTimedOut] = useState(false);
  const [settled, setSettled] = useState(false);
  const { data, error, isError, refetch } = useGetCheckoutStatusQuery(sessionId ?? '', {
    skip: !sessionId,
    refetchOnMountOrArgChange: true,
    pollingInterval: settled || timedOut ? 0 : CONFIRMATION_POLL_MS,
    skipPollingIfUnfocused: false,
  });

  const landed = data?.status === 'complete' && data.creditsAdded !== null;
  const canceled = data?.status === 'canceled';
  const notFound = isError && describeApiError(error).status === 404;
  const finished = landed || canceled || notFound;

  useEffect(() => {
    if (finished) setSettled(true);
  }, [finished]);

  useEffect(() => {
    if (!sessionId || finished) return;
    const timer = window.setTimeout(() => setTimedOut(true), Math.max(0, deadline - Date.now()));
    return () => window.clearTimeout(timer);
  }, [sessionId, finished, deadline]);

  // The header badge, the history and the subscription card show the new credits at once.
  useEffect(() => {
    if (landed) dispatch(api.util.invalidateTags([...MONEY_TAGS]));
  }, [landed, dispatch]);

  const checkAgain = () => {
    // Another minute of checking.
    setTimedOut(false);
    setDeadline(Date.now() + CONFIRMATION_TIMEOUT_MS);
    void refetch();
  };

  return {
    status: data,
    landed,
    canceled,
    notFound,
    timedOut: timedOut && !finished,
    checkAgain,
  };
}
