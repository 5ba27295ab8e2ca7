import { type AdminUser, adminMessages } from '@astra/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  DataList,
  Field,
  Heading,
  HStack,
  Input,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import {
  type AdminUserActionKind,
  relockIfExpired,
  useAdminUserActionMutation,
  useGetAdminUsersQuery,
} from './adminApi';
import { formatCount, formatDate, formatDateTime } from './adminFormat';

const SUCCESS: Record<AdminUserActionKind, string> = {
  block: adminMessages.blocked,
  unblock: adminMessages.unblocked,
  promote: adminMessages.promoted,
  demote: adminMessages.demoted,
  delete: adminMessages.deleted,
};

const FAILURE: Record<AdminUserActionKind, string> = {
  block: adminMessages.statusFailed,
  unblock: adminMessages.statusFailed,
  promote: adminMessages.roleFailed,
  demote: adminMessages.roleFailed,
  delete: adminMessages.deleteFailed,
};

const subscriptionText = (user: AdminUser) =>
  user.subscription
    ? `${user.subscription.tierName}${user.subscription.status === 'cancelled' ? ' (cancelled)' : ''}`
    : 'None';

interface UserRowProps {
  user: AdminUser;
  busy: AdminUserActionKind | null;
  onAction: (user: AdminUser, action: AdminUserActionKind) => void;
  onAdjustCredits: (user: AdminUser) => void;
  onViewLedger: (user: AdminUser) => void;
}

function UserRow({ user, busy, onAction, onAdjustCredits, onViewLedger }: UserRowProps) {
  const blocked = user.status === 'blocked';
  const admin = user.role === 'admin';
  const headingId = `admin-user-${user.id}`;
  return (
    <Box
      as="li"
      listStyleType="none"
      borderWidth="1px"
      borderColor="border"
      rounded="lg"
      bg="bg.subtle"
      p={{ base: '3', md: '4' }}
      display="flex"
      flexDirection="column"
      gap="3"
      aria-labelledby={headingId}
      data-user-id={user.id}
    >
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="2">
        <Box minW="0" id={headingId}>
          <Text fontWeight="semibold" overflowWrap="anywhere">
            {user.displayName}
          </Text>
          <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
            {user.email ?? 'No e-mail'}
          </Text>
        </Box>
        <HStack gap="2" wrap="wrap" align="flex-start">
          <Badge colorPalette={blocked ? 'red' : 'green'} variant="subtle">
            {blocked ? 'Blocked' : 'Active'}
          </Badge>
          <Badge colorPalette={admin ? 'purple' : 'gray'} variant="subtle">
            {admin ? 'Admin' : 'User'}
          </Badge>
        </HStack>
      </Stack>
      <DataList.Root
        orientation="vertical"
        size="sm"
        display="grid"
        gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }}
        gap="3"
      >
        <DataList.Item>
          <DataList.ItemLabel>Balance</DataList.ItemLabel>
          <DataList.ItemValue fontVariantNumeric="tabular-nums" data-testid="user-balance">
            {formatCount(user.balance)} credits
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Subscription</DataList.ItemLabel>
          <DataList.ItemValue>{subscriptionText(user)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Joined</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={user.joinedAt}>{formatDate(user.joinedAt)}</time>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Last activity</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={user.lastActivityAt}>{formatDateTime(user.lastActivityAt)}</time>
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <HStack gap="2" wrap="wrap">
        <Button
          size="xs"
          variant="outline"
          colorPalette={blocked ? 'green' : 'red'}
          loading={busy === 'block' || busy === 'unblock'}
          disabled={busy !== null}
          onClick={() => onAction(user, blocked ? 'unblock' : 'block')}
        >
          {blocked ? 'Unblock' : 'Block'}
        </Button>
        <Button
          size="xs"
          variant="outline"
          loading={busy === 'promote' || busy === 'demote'}
          disabled={busy !== null}
          onClick={() => onAction(user, admin ? 'demote' : 'promote')}
        >
          {admin ? 'Demote' : 'Promote'}
        </Button>
        <Button size="xs" variant="outline" onClick={() => onAdjustCredits(user)}>
          Adjust credits
        </Button>
        <Button size="xs" variant="outline" onClick={() => onViewLedger(user)}>
          View ledger
        </Button>
        <Button
          size="xs"
          variant="ghost"
          colorPalette="red"
          disabled={busy !== null}
          onClick={() => onAction(user, 'delete')}
        >
          Delete
        </Button>
      </HStack>
    </Box>
  );
}

interface UserManagementProps {
  onAdjustCredits: (user: AdminUser) => void;
  onViewLedger: (user: AdminUser) => void;
}

/** Spec §2 "User Management": every user, 20 a page, newest first, with search and actions. */
export function UserManagement({ onAdjustCredits, onViewLedger }: UserManagementProps) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const debounced = useDebouncedValue(search.trim(), 300);
  const query = { search: debounced, page };
  const { data, currentData, isLoading, isFetching, isError, refetch } =
    useGetAdminUsersQuery(query);
  const [runAction] = useAdminUserActionMutation();
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState<{ id: string; action: AdminUserActionKind } | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  // A broad search is counted up to a limit: past it, pages go on while they are full.
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const morePages = data
    ? page < pageCount || (data.totalCapped && data.items.length === data.pageSize)
    : false;
  // After a deletion empties the last page, show the page before it.
  if (data && !data.totalCapped && page > pageCount && !isFetching) setPage(pageCount);

  const act = async (user: AdminUser, action: AdminUserActionKind) => {
    setBusy({ id: user.id, action });
    try {
      const answer = await runAction({ user, action }).unwrap();
      notifySuccess(SUCCESS[action] ?? answer.message);
      if (action === 'delete') setDeleting(null);
    } catch (error) {
      const info = describeApiError(error);
      // The server's reason for a refusal (409 self_action / last_admin, 404, 403) is shown.
      notifyError(
        FAILURE[action],
        typeof info.status === 'number' && info.status < 500 ? info.message : undefined,
      );
      const relock = relockIfExpired(error);
      if (relock) dispatch(relock);
      if (action === 'delete') setDeleting(null);
    } finally {
      setBusy(null);
    }
  };

  const onAction = (user: AdminUser, action: AdminUserActionKind) =>
    action === 'delete' ? setDeleting(user) : void act(user, action);

  return (
    <Surface as="section" aria-labelledby="user-management-heading" px={{ base: '3', md: '6' }}>
      <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" gap="3">
        <Stack gap="1">
          <Heading as="h2" size="lg" id="user-management-heading">
            User Management
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {currentData
              ? `${formatCount(currentData.total)}${currentData.totalCapped ? '+' : ''} ${currentData.total === 1 ? 'user' : 'users'}${
                  debounced ? ` matching “${debounced}”` : ''
                }, newest first.`
              : data
                ? 'Searching...'
                : 'Newest first.'}
          </Text>
        </Stack>
        <Field.Root maxW={{ md: 'xs' }}>
          <Field.Label srOnly>Search users</Field.Label>
          <Input
            type="search"
            name="user-search"
            placeholder="Search by name or e-mail"
            value={search}
            maxLength={200}
            autoComplete="off"
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </Field.Root>
      </Stack>

      {isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{adminMessages.loadUsersFailed}</Alert.Title>
          <Button size="sm" variant="outline" onClick={() => refetch()}>
            Try again
          </Button>
        </Alert.Root>
      )}
      {isLoading && <Skeleton h="48" rounded="lg" />}
      {currentData && currentData.items.length === 0 && (
        <Text color="fg.muted" py="6" textAlign="center">
          {debounced ? 'No users match this search.' : 'No users yet.'}
        </Text>
      )}
      {data && data.items.length > 0 && (
        <Stack
          as="ul"
          gap="3"
          aria-label="Users"
          aria-busy={isFetching}
          opacity={isFetching ? 0.7 : 1}
          transition="opacity 0.2s"
        >
          {data.items.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              busy={busy?.id === user.id ? busy.action : null}
              onAction={onAction}
              onAdjustCredits={onAdjustCredits}
              onViewLedger={onViewLedger}
            />
          ))}
        </Stack>
      )}
      {data && (
        <HStack as="nav" aria-label="User list pages" justify="space-between" wrap="wrap" gap="2">
          <Button
            size="sm"
            variant="outline"
            disabled={page <= 1 || isFetching}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            <ChevronLeft aria-hidden />
            Previous
          </Button>
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            Page {data?.totalCapped ? page : Math.min(page, pageCount)} of {pageCount}
            {data?.totalCapped ? '+' : ''}
          </Text>
          <Button
            size="sm"
            variant="outline"
            disabled={!morePages || isFetching}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
            <ChevronRight aria-hidden />
          </Button>
        </HStack>
      )}

      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && busy?.action !== 'delete' && setDeleting(null)}
        title="Delete user"
        cancelLabel="Cancel"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={busy?.action === 'delete'}
        onConfirm={() => deleting && void act(deleting, 'delete')}
      >
        <Text>{adminMessages.deleteConfirm}</Text>
        {deleting && (
          <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
            {deleting.displayName}
            {deleting.email ? ` · ${deleting.email}` : ''}
          </Text>
        )}
      </ConfirmDialog>
    </Surface>
  );
}
