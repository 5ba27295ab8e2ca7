import type { CreditEvent, CreditRollForward } from '@astra/contracts';
import { balanceChange, movementOf } from '../credits/balance.ts';

/** A month's roll-forward with nothing moved yet. */
export const openRollForward = (opening: number): CreditRollForward => ({
  opening,
  purchased: 0,
  subscriptionGrants: 0,
  free: 0,
  adminAdjustments: 0,
  spentReadings: 0,
  spentVoice: 0,
  spendsRefunded: 0,
  forfeitedRollover: 0,
  forfeitedDeletion: 0,
  reversed: 0,
  closing: opening,
  balancesAtClose: opening,
  difference: 0,
});

/** The roll-forward with one event's movement added (closing follows; balances are the caller's). */
export const rollForward = (report: CreditRollForward, event: CreditEvent): CreditRollForward => {
  const movement = movementOf(event);
  if (!movement) return report;
  return {
    ...report,
    [movement.line]: report[movement.line] + movement.credits,
    closing: report.closing + balanceChange(event),
  };
};

/** Closes the roll-forward against the balances summed by replay: a difference is a flag. */
export const closeRollForward = (
  report: CreditRollForward,
  balancesAtClose: number,
): CreditRollForward => ({
  ...report,
  balancesAtClose,
  difference: balancesAtClose - report.closing,
});
