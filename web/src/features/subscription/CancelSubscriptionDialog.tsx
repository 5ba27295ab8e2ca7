import { Button, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
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
    <Dialog.Root role="alertdialog" open={open} onOpenChange={(event) => setOpen(event.open)}>
      <Dialog.Trigger asChild>
        <Button variant="outline" colorPalette="red" size="sm">
          Cancel Subscription
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Cancel your {tierName} subscription?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text>
                  Your subscription will not renew. You keep your access and your remaining credits
                  until {renewal ?? 'your next renewal date'}.
                </Text>
                <Text color="fg.muted" fontSize="sm">
                  You can subscribe again at any time from the pricing page.
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={isCancelling}>
                  Keep Subscription
                </Button>
              </Dialog.ActionTrigger>
              <Button
                colorPalette="red"
                loading={isCancelling}
                loadingText="Cancelling..."
                onClick={confirm}
              >
                Yes, cancel my subscription
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
