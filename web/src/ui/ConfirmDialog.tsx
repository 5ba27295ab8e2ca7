import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the dialog, when it has one of its own. */
  trigger?: ReactNode;
  title: ReactNode;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  /**
   * The confirm button's label while the action runs, e.g. 'Deleting...'; none for an action
   * that closes the dialog at once.
   */
  busyLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  /** 'red' (the default) for what cannot be taken back; the brand colour for a plain change. */
  confirmColorPalette?: 'red' | 'brand';
}

/**
 * Asks before something that cannot be taken back (an alert dialog with a red confirm button),
 * or before a change that deserves a second look, such as another plan.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  children,
  cancelLabel,
  confirmLabel,
  busyLabel,
  busy = false,
  onConfirm,
  confirmColorPalette = 'red',
}: ConfirmDialogProps) {
  return (
    <Dialog.Root role="alertdialog" open={open} onOpenChange={(event) => onOpenChange(event.open)}>
      {trigger && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" gap="3">
              {children}
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={busy}>
                  {cancelLabel}
                </Button>
              </Dialog.ActionTrigger>
              <Button
                colorPalette={confirmColorPalette}
                loading={busy}
                loadingText={busyLabel}
                onClick={onConfirm}
              >
                {confirmLabel}
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
