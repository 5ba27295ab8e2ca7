import { Button, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { notifyError, SUCCESS_TOAST_MS } from '../../ui/toaster';
import { formatRenewalDate } from './renewalDate';
import { useChangePlanMutation } from './subscriptionApi';
import { notifySubscriptionSuccess } from './subscriptionNotices';

interface ChangePlanDialogProps {
  /** The plan now. */
  currentTierName: string;
  nextRenewalDate: string | null;
  /** The plan chosen, as the pricing card shows it. */
  tierId: number;
  tierName: string;
  /** The formatted monthly price, as the card shows it (formatPrice). */
  price: string;
  creditsPerMonth: number;
  disabled?: boolean;
}

/**
 * 'Change plan' on another plan's pricing card. A second subscription is never bought beside
 * the first: the plan changes from the next renewal, and nothing is charged now.
 */
export function ChangePlanDialog({
  currentTierName,
  nextRenewalDate,
  tierId,
  tierName,
  price,
  creditsPerMonth,
  disabled,
}: ChangePlanDialogProps) {
  const [open, setOpen] = useState(false);
  const [changePlan, { isLoading }] = useChangePlanMutation();
  const renewal = formatRenewalDate(nextRenewalDate) ?? 'your next renewal date';

  const confirm = async () => {
    try {
      const { message } = await changePlan({ tierId }).unwrap();
      notifySubscriptionSuccess('Plan changed', message, SUCCESS_TOAST_MS);
      setOpen(false);
    } catch (failure) {
      const info = describeApiError(failure);
      notifyError(
        'Plan change failed',
        (typeof info.status === 'number' && info.message) ||
          'We could not change your plan. Please try again.',
      );
    }
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button mt="auto" variant="outline" disabled={disabled}>
          Change plan
        </Button>
      }
      title={`Change to ${tierName}?`}
      cancelLabel={`Keep ${currentTierName}`}
      confirmLabel={`Change to ${tierName}`}
      busyLabel="Changing..."
      busy={isLoading}
      onConfirm={confirm}
      confirmColorPalette="brand"
    >
      <Text>
        Your plan changes from {currentTierName} to {tierName} from your next renewal date,{' '}
        {renewal}: from then on you pay {price} a month and receive {creditsPerMonth} credits each
        month.
      </Text>
      <Text fontWeight="semibold">Nothing is charged now.</Text>
      <Text color="fg.muted" fontSize="sm">
        Until then your {currentTierName} plan and all your credits stay as they are.
      </Text>
    </ConfirmDialog>
  );
}
