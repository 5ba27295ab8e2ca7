import type { CreditEvent, CreditRollForward } from '@astra/contracts';

/**
 * How each credit event moves credits: the one list of every event type's effect on the
 * balance. The balance, the credits ever granted and the month's roll-forward follow it.
 */

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
    case 'DisputeClosed':
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
    case 'DisputeOpened':
      return null;
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/** Lines that grant credits (an admin's adjustment grants only when it adds). */
const GRANTS: ReadonlySet<CreditMovement> = new Set(['free', 'purchased', 'subscriptionGrants']);

/** The signed change an event makes to the balance. */
export const balanceChange = (event: CreditEvent): number => {
  const movement = movementOf(event);
  if (!movement) return 0;
  return OUTGOING.has(movement.line) ? -movement.credits : movement.credits;
};

/** The part of an event that counts toward credits ever granted. */
export const grantedBy = (event: CreditEvent): number => {
  const movement = movementOf(event);
  if (!movement) return 0;
  if (movement.line === 'adminAdjustments') return Math.max(movement.credits, 0);
  return GRANTS.has(movement.line) ? movement.credits : 0;
};
