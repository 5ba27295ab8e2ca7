import type { BillingType, SubscriptionView } from '@astra/contracts';
import { Button } from '@chakra-ui/react';
import { ChangePlanDialog } from '../subscription/ChangePlanDialog';
import { formatRenewalDate } from '../subscription/renewalDate';

interface TierActionProps {
  tierId: number;
  tierName: string;
  billingType: BillingType;
  /** The formatted price, as the card shows it (formatPrice). */
  price: string;
  creditsIncluded: number;
  popular: boolean;
  /** The signed-in person's plan, if they have one. */
  subscription: SubscriptionView | null;
  busy: boolean;
  disabled: boolean;
  onChoose: () => void;
}

/**
 * A pricing card's button. Packs can always be bought (their credits add to any plan); a
 * subscriber never subscribes a second time: their own plan is 'Your plan', and another plan
 * is 'Change plan', from the next renewal with nothing charged now (for an active plan; a
 * cancelled one runs out first).
 */
export function TierAction({
  tierId,
  tierName,
  billingType,
  price,
  creditsIncluded,
  popular,
  subscription,
  busy,
  disabled,
  onChoose,
}: TierActionProps) {
  if (billingType === 'subscription' && subscription) {
    if (subscription.tierId === tierId) {
      return (
        <Button mt="auto" variant="outline" disabled>
          Your plan
        </Button>
      );
    }
    if (subscription.status !== 'active') {
      // A cancelled plan runs to its end date; until then no other plan can start or be chosen.
      const end = formatRenewalDate(subscription.nextRenewalDate);
      return (
        <Button mt="auto" variant="outline" disabled>
          {end ? `Available after ${end}` : 'Available when your plan ends'}
        </Button>
      );
    }
    return (
      <ChangePlanDialog
        currentTierName={subscription.tierName}
        nextRenewalDate={subscription.nextRenewalDate}
        tierId={tierId}
        tierName={tierName}
        price={price}
        creditsPerMonth={creditsIncluded}
        disabled={disabled}
      />
    );
  }
  return (
    <Button
      mt="auto"
      variant={popular ? 'solid' : 'outline'}
      loading={busy}
      loadingText="Opening checkout..."
      disabled={disabled}
      onClick={onChoose}
    >
      {billingType === 'subscription' ? 'Subscribe' : 'Buy Credits'}
    </Button>
  );
}
