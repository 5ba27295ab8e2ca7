import { Button, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatRenewalDate } from './renewalDate';
import { useCancelSubscription } from './useCancelSubscription';

interface CancelSubscriptionDialogProps {
  tierName: string;
  nextRenewalDate: string | null;
  active: boolean;
}

/** 'Cancel Subscription', confirmed before anything changes. */
export function CancelSubscriptionDialog({
  tierName,
  nextRenewalDate,
  active,
}: CancelSubscriptionDialogProps) {
  const [open, setOpen] = useState(false);
  const { cancel, isCancelling } = useCancelSubscription();
  const renewal = formatRenewalDate(nextRenewalDate);

  const confirm = async () => {
    if (await cancel(active)) setOpen(false);
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline" colorPalette="red" size="sm">
          Cancel Subscription
        </Button>
      }
      title={`Cancel your ${tierName} subscription?`}
      cancelLabel="Keep Subscription"
      confirmLabel="Yes, cancel my subscription"
      busyLabel="Cancelling..."
      busy={isCancelling}
      onConfirm={confirm}
    >
      <Text>
        Your subscription will not renew. You keep your access and your remaining credits until{' '}
        {renewal ?? 'your next renewal date'}.
      </Text>
      <Text color="fg.muted" fontSize="sm">
        You can subscribe again at any time from the pricing page.
      </Text>
    </ConfirmDialog>
  );
}
