import {
  Toaster as ChakraToaster,
  createToaster,
  Portal,
  Spinner,
  Stack,
  Toast,
} from '@chakra-ui/react';

/** One toaster for the app; the spec places toasts top-right and gives success toasts 5 s. */
export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true });

export const SUCCESS_TOAST_MS = 5000;

export const notifySuccess = (title: string, description?: string) =>
  toaster.create({ type: 'success', title, description, duration: SUCCESS_TOAST_MS });

/** Errors keep the toaster's default duration. */
export const notifyError = (title: string, description?: string) =>
  toaster.create({ type: 'error', title, description, closable: true });

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            {toast.type === 'loading' ? <Spinner size="sm" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable && <Toast.CloseTrigger aria-label="Dismiss notification" />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
