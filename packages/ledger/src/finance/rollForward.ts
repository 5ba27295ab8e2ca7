import type { CreditEvent, CreditRollForward } from '@astra/contracts';

/** The lines of a month's credit roll-forward that events move (all but opening and closing). */
export type CreditMovement = Exclude<
  keyof CreditRollForward,
  'opening' | 'closing' | 'balancesAtClose' | 'difference'
>;

/** Lines that take credits out of the balance: the roll-forward subtracts them. */
export const OUTGOING: ReadonlySet<CreditMovement> = new Set([
  'spentReadings',
  'spentVoice',
  'forfeitedRollover',
  'forfeitedDeletion',
  'reversed',
]);

/**
 * The roll-forward line an event moves, and by how many credits (a magnitude; admin adjustments
 * are signed). Events that move no credit have none.
 */
export const movementOf = (
  event: CreditEvent,
): { line: CreditMovement; credits: number } | null => {
  switch (event.type) {
    case 'FreeCreditsGranted':
      return { line: 'free', credits: event.data.amount };
    case 'CreditsGranted':
      return {
        line: event.data.kind === 'purchase' ? 'purchased' : 'free',
        credits: event.data.amount,
      };
    case 'MonthlyCreditsGranted':
      return { line: 'subscriptionGrants', credits: event.data.amount };
    case 'CreditsAdjusted':
      return { line: 'adminAdjustments', credits: event.data.amount };
    case 'CreditsSpent':
      return {
        line: event.data.purpose === 'voice_reactivation' ? 'spentVoice' : 'spentReadings',
        credits: event.data.amount,
      };
    case 'SpendRefunded':
      return { line: 'spendsRefunded', credits: event.data.amount };
    case 'RolloverForfeited':
      return { line: 'forfeitedRollover', credits: event.data.amount };
    case 'CreditsForfeited':
      return { line: 'forfeitedDeletion', credits: event.data.amount };
    case 'PurchaseReversed':
      return event.data.amount > 0 ? { line: 'reversed', credits: event.data.amount } : null;
    case 'CreditAccountOpened':
    case 'SubscriptionActivated':
    case 'SubscriptionCancelled':
    case 'SubscriptionEnded':
    case 'CreditAccountClosed':
    case 'PurchaseRefundPending':
    case 'PaymentRefunded':
    case 'SubscriptionCheckoutStarted':
    case 'SubscriptionCheckoutClosed':
    case 'SubscriptionPlanChanged':
      return null;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};

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
  const signed = OUTGOING.has(movement.line) ? -movement.credits : movement.credits;
  return {
    ...report,
    [movement.line]: report[movement.line] + movement.credits,
    closing: report.closing + signed,
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
