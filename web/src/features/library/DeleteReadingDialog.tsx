import type { LibraryItem } from '@astra/contracts';
import { Text } from '@chakra-ui/react';
import { useTimeZone } from '../../app/timeZone';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
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
  const [deleteReading] = useDeleteReadingMutation();
  const timeZone = useTimeZone();

  // The reading leaves the list at once (libraryApi), so the dialog need not wait for the server.
  const confirm = async () => {
    if (!item) return;
    onClose();
    try {
      await deleteReading(item.readingId).unwrap();
      notifySuccess('Reading deleted successfully');
    } catch {
      notifyError('Failed to delete reading');
    }
  };

  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete this reading?"
      cancelLabel="Cancel"
      confirmLabel="Delete"
      onConfirm={confirm}
    >
      {item && (
        <Text>
          Your {appTitle(item.appId, item.appName)} reading from{' '}
          {formatLibraryDate(item.createdAt, timeZone)} will be removed from your library. This
          cannot be undone.
        </Text>
      )}
    </ConfirmDialog>
  );
}
