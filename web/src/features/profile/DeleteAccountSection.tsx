import { Button, Heading, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { describeApiError } from '../../app/apiErrors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { SESSION_ENDED_STATE } from '../auth/sessionEnd';
import { useDeleteAccountMutation } from './profileApi';

export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  const navigate = useNavigate();

  const confirmDeletion = async () => {
    try {
      await deleteAccount().unwrap();
    } catch (failure) {
      const info = describeApiError(failure);
      if (info.status === 'network') notifyError('Failed to delete account. Please try again.');
      else notifyError(`Failed to delete account: ${info.message ?? 'Unknown error'}`);
      return;
    }
    setOpen(false);
    notifySuccess(
      'Account Deleted',
      'Your account is closed. Thank you for travelling with Astra.',
    );
    navigate('/', { replace: true, state: SESSION_ENDED_STATE });
  };

  return (
    <Surface as="section" aria-labelledby="delete-account-heading" borderColor="border.error">
      <Heading as="h2" size="md" id="delete-account-heading">
        Delete Account
      </Heading>
      <Text color="fg.muted">
        Closing your account signs you out everywhere and forfeits your remaining credits. This
        cannot be undone.
      </Text>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button colorPalette="red" variant="outline" alignSelf="flex-start">
            Delete Account
          </Button>
        }
        title="Delete your account?"
        cancelLabel="Cancel"
        confirmLabel="Yes, delete my account"
        busyLabel="Deleting..."
        busy={isLoading}
        onConfirm={confirmDeletion}
      >
        <Text>
          Your account will be closed, you will be signed out on every device, and your remaining
          credits are forfeited.
        </Text>
        <Text color="fg.muted" fontSize="sm">
          Your credit history is kept, as our records must be, and the free welcome credits are not
          granted again if you sign up later with the same e-mail address.
        </Text>
      </ConfirmDialog>
    </Surface>
  );
}
