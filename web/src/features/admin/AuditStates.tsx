import { Alert, Button, Stack, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { relockIfExpired } from './adminApi';

/** The unlock ran out while a view was open: back to the password gate. */
export function useRelockOn(error: unknown) {
  const dispatch = useAppDispatch();
  const code = error ? describeApiError(error).code : undefined;
  useEffect(() => {
    if (code !== 'admin_locked') return;
    const relock = relockIfExpired(error);
    if (relock) dispatch(relock);
  }, [code, error, dispatch]);
}

/** What went wrong, in words a person can act on. */
export function explainError(error: unknown): string {
  const info = describeApiError(error);
  if (info.status === 'network') return 'The server could not be reached. Check the connection.';
  if (info.status === 404) {
    return 'The server does not offer this view (yet): it may be running an older version.';
  }
  if (info.status === 400 && info.fields?.length) {
    return info.fields.map((field) => `${field.field}: ${field.message}`).join('; ');
  }
  if (typeof info.status === 'number' && info.status >= 500) {
    return `${info.message ?? 'The server failed to answer'} (HTTP ${info.status}).`;
  }
  return info.message ?? 'Something went wrong.';
}

/** A failed load: what failed, why, and a way to try again. */
export function QueryError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
}) {
  useRelockOn(error);
  return (
    <Alert.Root status="error" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{explainError(error)}</Alert.Description>
      </Alert.Content>
      {onRetry && (
        <Button size="sm" variant="outline" onClick={onRetry} flexShrink={0}>
          Try again
        </Button>
      )}
    </Alert.Root>
  );
}

/** Nothing to show, said plainly, with a hint of what to do about it. */
export function EmptyNote({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack
      gap="1"
      py="8"
      px="4"
      textAlign="center"
      borderWidth="1px"
      borderStyle="dashed"
      borderColor="border"
      rounded="lg"
    >
      <Text fontWeight="semibold">{title}</Text>
      {children && (
        <Text fontSize="sm" color="fg.muted">
          {children}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A wide table's frame: it scrolls sideways on its own on a narrow screen (the page never
 * does), can be scrolled from the keyboard, and is named for assistive technology.
 */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.ScrollArea
      position="relative"
      borderWidth="1px"
      borderColor="border"
      rounded="lg"
      tabIndex={0}
      role="region"
      aria-label={label}
      w="full"
    >
      {children}
    </Table.ScrollArea>
  );
}
