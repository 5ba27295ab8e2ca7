import {
  Toaster as ChakraToaster,
  createToaster,
  Portal,
  Spinner,
  Stack,
  Toast,
} from '@chakra-ui/react';

/**
 * One toaster for the app. The spec places toasts top-right; they start below the sticky header
 * (4rem high), so they never cover Buy Credits or the profile menu, and at most three show.
 */
export const toaster = createToaster({
  placement: 'top-end',
  offsets: { top: '5rem', right: '1rem', bottom: '1rem', left: '1rem' },
  max: 3,
  pauseOnPageIdle: true,
});

export const SUCCESS_TOAST_MS = 5000;

/** The notice on screen: the next one replaces it, so stale notices never pile up. */
let currentNotice: string | undefined;
const notify = (options: Parameters<typeof toaster.create>[0]) => {
  if (currentNotice && currentNotice !== options.id) toaster.dismiss(currentNotice);
  currentNotice = toaster.create(options);
  return currentNotice;
};
const noticeId = (title: string, description?: string) => `notice:${title}:${description ?? ''}`;

export const notifySuccess = (title: string, description?: string) =>
  notify({
    id: noticeId(title, description),
    type: 'success',
    title,
    description,
    duration: SUCCESS_TOAST_MS,
  });

/** Errors keep the toaster's default duration. */
export const notifyError = (title: string, description?: string) =>
  notify({ id: noticeId(title, description), type: 'error', title, description, closable: true });

/** The error toasts about a form's input now on screen (one form is on screen at a time). */
const formErrors = new Set<string>();

/**
 * An error about a form's input (a missing field, a refused submit): it belongs to the form, so
 * `clearFormErrors` takes it away once the form is sent successfully or left. A message meant
 * for the page a refusal leads to (too few credits, on to pricing) is a plain `notifyError`.
 */
export const notifyFormError = (title: string, description?: string) => {
  const id = notifyError(title, description);
  formErrors.add(id);
  return id;
};

export function clearFormErrors() {
  for (const id of formErrors) toaster.dismiss(id);
  formErrors.clear();
}

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
