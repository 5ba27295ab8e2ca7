import type { LibraryItem } from '@astra/contracts';
import { Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { appTitle } from '../readings/readingCatalog';
import { useDeleteReadingMutation } from './libraryApi';
import { formatLibraryDate } from './libraryParams';

interface DeleteReadingDialogProps {
  /** The reading to delete; the dialog is open while one is set. */
  item: LibraryItem | null;
  onClose: () => void;
}

/** Confirms before a reading leaves the library for good. */
export function DeleteReadingDialog({ item, onClose }: DeleteReadingDialogProps) {
  const [deleteReading, { isLoading }] = useDeleteReadingMutation();

  const confirm = async () => {
    if (!item) return;
    try {
      await deleteReading(item.readingId).unwrap();
      notifySuccess('Reading deleted successfully');
      onClose();
    } catch {
      notifyError('Failed to delete reading');
    }
  };

  return (
    <Dialog.Root
      role="alertdialog"
      open={item !== null}
      onOpenChange={(event) => {
        if (!event.open) onClose();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Delete this reading?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {item && (
                <Text>
                  Your {appTitle(item.appId, item.appName)} reading from{' '}
                  {formatLibraryDate(item.createdAt)} will be removed from your library. This cannot
                  be undone.
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={isLoading}>
                  Cancel
                </Button>
              </Dialog.ActionTrigger>
              <Button
                colorPalette="red"
                loading={isLoading}
                loadingText="Deleting..."
                onClick={confirm}
              >
                Delete
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
