import type { CreditLots, SubscriptionView } from '@astra/contracts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Credits that no renewal touches: bought, free and promotional ones never expire. */
export const keptCredits = (lots: CreditLots) => lots.purchased + lots.free + lots.promotional;

/**
 * What the next renewal does to the balance, in words: '60 subscription credits roll over;
 * your 110 purchased and free credits never expire.' and, when the plan's own credits exceed
 * one month's worth, the part that will not carry over.
 */
export function renewalKeepsText(
  subscription: Pick<SubscriptionView, 'rolloverCredits' | 'forfeitAtRenewal' | 'creditsPerMonth'>,
  lots: CreditLots,
): { keeps: string; forfeits: string | null } {
  const rollover =
    subscription.rolloverCredits ?? Math.min(lots.subscription, subscription.creditsPerMonth);
  const kept = keptCredits(lots);
  const keeps =
    `${plural(rollover, 'subscription credit rolls', 'subscription credits roll')} over; ` +
    `your ${plural(kept, 'purchased and free credit never expires', 'purchased and free credits never expire')}.`;
  const forfeit = subscription.forfeitAtRenewal;
  const forfeits =
    forfeit > 0
      ? `${plural(forfeit, 'subscription credit', 'subscription credits')} above one month's worth will not carry over.`
      : null;
  return { keeps, forfeits };
}
