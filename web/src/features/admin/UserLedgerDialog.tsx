import { type AdminUser, ledgerEntryDetail, ledgerEntryLabel } from '@astra/contracts';
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Dialog,
  HStack,
  List,
  Portal,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { History } from 'lucide-react';
import { describeApiError } from '../../app/apiErrors';
import { LinkButton } from '../../ui/LinkButton';
import { LEDGER_KIND_PALETTE, signedAmount } from '../credits/ledgerLabels';
import { useGetAdminUserLedgerQuery } from './adminApi';
import { formatCount, formatDateTime } from './adminFormat';
import { userLedgerPath } from './auditFormat';

const actorText = (actor: { kind: string; role: string | null }) =>
  actor.kind === 'user'
    ? actor.role === 'admin'
      ? 'by an admin'
      : 'by the user'
    : `by ${actor.kind}`;

function LedgerEntries({ userId }: { userId: string }) {
  const { data, isLoading, isError, error, refetch } = useGetAdminUserLedgerQuery(userId, {
    refetchOnMountOrArgChange: true,
  });
  if (isLoading) return <Skeleton h="40" rounded="md" />;
  if (isError || !data) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>
          {describeApiError(error).message ?? "We couldn't load this user's ledger."}
        </Alert.Title>
        <Button size="sm" variant="outline" onClick={() => refetch()}>
          Try again
        </Button>
      </Alert.Root>
    );
  }
  if (data.items.length === 0) return <Text color="fg.muted">No credit changes yet.</Text>;
  return (
    <Stack gap="3">
      <Text fontSize="sm" color="fg.muted">
        {formatCount(data.total)} {data.total === 1 ? 'entry' : 'entries'}, newest first.
      </Text>
      <List.Root as="ol" listStyle="none" gap="2" aria-label="Ledger entries">
        {data.items.map((entry) => {
          const detail = ledgerEntryDetail(entry);
          return (
            <List.Item
              key={entry.eventId}
              borderWidth="1px"
              borderColor="border"
              rounded="md"
              p="3"
              display="flex"
              flexDirection="column"
              gap="1"
            >
              <HStack justify="space-between" align="flex-start" gap="3">
                <Stack gap="1" minW="0">
                  <HStack gap="2" wrap="wrap">
                    <Badge colorPalette={LEDGER_KIND_PALETTE[entry.kind]} variant="subtle">
                      {ledgerEntryLabel(entry, 'staff')}
                    </Badge>
                    <Text as="span" fontSize="xs" color="fg.muted">
                      {actorText(entry.actor)}
                    </Text>
                  </HStack>
                  {detail && (
                    <Text fontSize="sm" overflowWrap="anywhere">
                      {detail}
                    </Text>
                  )}
                  <Text fontSize="xs" color="fg.muted">
                    <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
                  </Text>
                </Stack>
                <Stack gap="0" textAlign="end" flexShrink={0} fontVariantNumeric="tabular-nums">
                  <Text
                    fontWeight="semibold"
                    color={entry.amount < 0 ? 'fg.error' : entry.amount > 0 ? 'fg.success' : 'fg'}
                  >
                    {signedAmount(entry.amount)}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    balance {formatCount(entry.balanceAfter)}
                  </Text>
                </Stack>
              </HStack>
            </List.Item>
          );
        })}
      </List.Root>
    </Stack>
  );
}

/**
 * A user's whole credit ledger, newest first, in a dialog over the user list; its audit ledger
 * (every event from the log with actor, cause and correlation id, the running balance and the
 * balance as of any instant) is a page of the panel, one link away.
 */
export function UserLedgerDialog({
  user,
  onClose,
}: {
  user: AdminUser | null;
  onClose: () => void;
}) {
  return (
    <Dialog.Root
      open={Boolean(user)}
      onOpenChange={(event) => !event.open && onClose()}
      scrollBehavior="inside"
      size={{ base: 'full', md: 'lg' }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>
                Credit ledger
                {user && (
                  <Text
                    as="span"
                    display="block"
                    fontSize="sm"
                    fontWeight="normal"
                    color="fg.muted"
                  >
                    {user.displayName}
                    {user.email ? ` · ${user.email}` : ''}
                  </Text>
                )}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{user && <LedgerEntries userId={user.id} />}</Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              {user && (
                <LinkButton to={userLedgerPath(user.id)} variant="ghost" onClick={onClose}>
                  <History aria-hidden />
                  Open audit ledger
                </LinkButton>
              )}
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Close</Button>
              </Dialog.ActionTrigger>
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
