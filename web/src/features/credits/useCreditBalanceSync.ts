import { useEffect, useRef } from 'react';
import { api } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';

/** The window event the spec names: `detail` is the new credit balance. */
export const CREDIT_BALANCE_EVENT = 'creditBalanceUpdated';

export function announceCreditBalance(credits: number) {
  window.dispatchEvent(new CustomEvent<number>(CREDIT_BALANCE_EVENT, { detail: credits }));
}

/**
 * Keeps every view of the balance in step. When our copy of the balance changes we announce it
 * and refresh the ledger; when someone else announces a balance we don't have, we re-read ours.
 */
export function useCreditBalanceSync(credits: number | undefined) {
  const dispatch = useAppDispatch();
  const previous = useRef<number | undefined>(undefined);

  useEffect(() => {
    const before = previous.current;
    previous.current = credits;
    if (credits === undefined || before === undefined || before === credits) return;
    dispatch(api.util.invalidateTags(['Ledger']));
    announceCreditBalance(credits);
  }, [credits, dispatch]);

  useEffect(() => {
    const onAnnounced = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (typeof detail === 'number' && detail !== previous.current) {
        dispatch(api.util.invalidateTags(['Me', 'Ledger']));
      }
    };
    window.addEventListener(CREDIT_BALANCE_EVENT, onAnnounced);
    return () => window.removeEventListener(CREDIT_BALANCE_EVENT, onAnnounced);
  }, [dispatch]);
}
