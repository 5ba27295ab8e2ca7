import {
  ADMIN_COMMAND_TYPES,
  ADMIN_DELETION_TYPES,
  type AdminActivityEntry,
  type AdminActivityType,
  adminMessages,
  ERASED_EMAIL,
} from '@astra/contracts';
import {
  Badge,
  Box,
  Code,
  Field,
  Heading,
  HStack,
  NativeSelect,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { localZoneLabel } from './adminFormat';
import { useGetAdminActivityQuery } from './auditApi';
import { formatInstant, userLedgerPath } from './auditFormat';
import { PagerNav, PageStates, useCursorPages } from './CursorPages';

const PAGE = 25;

/**
 * What each action is, for a person reading the list. The record's type makes an action the list
 * shows without a title a compile error here.
 */
const ACTION_LABEL: Record<AdminActivityType, string> = {
  AdminUnlocked: 'Unlocked the admin panel',
  AdminUnlockFailed: 'Failed unlock attempt',
  AdminUnlockRefused: 'Unlock refused',
  AdminLocked: 'Locked the admin panel',
  AdminExportStarted: 'Started a ledger export',
  AdminDataExported: 'Downloaded finance data',
  AdminVerifyRun: 'Ran ledger verification',
  AdminRebuildStarted: 'Started a rebuild of the read models',
  CreditsAdjusted: 'Adjusted credits',
  MonthClosed: 'Closed a finance month',
  UserBlocked: 'Blocked a user',
  UserUnblocked: 'Unblocked a user',
  UserRoleChanged: 'Changed a role',
  UserDeleted: 'Deleted a user',
  SubscriptionEnded: "Ended the deleted user's plan",
  CreditsForfeited: "Removed the deleted user's credits",
  CreditAccountClosed: "Closed the deleted user's credit account",
  PersonalDataErased: "Erased the deleted user's personal data",
};
const actionLabel = (action: string) =>
  ACTION_LABEL[action as AdminActivityType] ?? `Other action (${action})`;

const actionPalette = (action: string) =>
  action === 'AdminUnlockFailed' ||
  action === 'AdminUnlockRefused' ||
  action.includes('Deleted') ||
  action.includes('Blocked')
    ? 'red'
    : action === 'AdminDataExported'
      ? 'blue'
      : action.startsWith('Admin')
        ? 'gray'
        : action === 'CreditsAdjusted'
          ? 'orange'
          : 'purple';

/** The groups the list can be narrowed to (`?tab=activity&show=`), each a set of actions. */
const SHOWN: { id: string; label: string; types?: AdminActivityType[] }[] = [
  { id: '', label: 'Everything' },
  {
    id: 'access',
    label: 'Data access (downloads)',
    types: ['AdminExportStarted', 'AdminDataExported'],
  },
  {
    id: 'operations',
    label: 'Operations (verify, rebuild, month closes)',
    types: ['AdminVerifyRun', 'AdminRebuildStarted', 'MonthClosed'],
  },
  {
    id: 'sessions',
    label: 'Unlocks and locks',
    types: ['AdminUnlocked', 'AdminUnlockFailed', 'AdminUnlockRefused', 'AdminLocked'],
  },
  {
    id: 'commands',
    label: 'Commands on users',
    types: [
      ...ADMIN_COMMAND_TYPES.filter((type) => type !== 'MonthClosed'),
      ...ADMIN_DELETION_TYPES,
    ],
  },
];

function ActivityItem({ entry }: { entry: AdminActivityEntry }) {
  const self = entry.targetUserId === entry.adminId;
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
      gap="2"
      data-action={entry.action}
      data-position={entry.position}
    >
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="2">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="semibold">{actionLabel(entry.action)}</Text>
          <Badge colorPalette={actionPalette(entry.action)} variant="subtle" title="Event type">
            {entry.action}
          </Badge>
        </HStack>
        <Text fontSize="sm" color="fg.muted" flexShrink={0}>
          <time dateTime={entry.occurredAt}>{formatInstant(entry.occurredAt)}</time>
        </Text>
      </Stack>
      <Text fontSize="sm" overflowWrap="anywhere">
        <Text as="span" color="fg.muted">
          Admin{' '}
        </Text>
        {entry.adminEmail === ERASED_EMAIL
          ? `${adminMessages.erasedUser} ${entry.adminId}`
          : (entry.adminEmail ?? entry.adminId)}
        {entry.targetUserId && !self && (
          <>
            <Text as="span" color="fg.muted">
              {' '}
              on{' '}
            </Text>
            <TextLink to={userLedgerPath(entry.targetUserId)}>
              {entry.targetEmail === ERASED_EMAIL
                ? `${adminMessages.erasedUser} ${entry.targetUserId}`
                : (entry.targetEmail ?? entry.targetUserId)}
            </TextLink>
          </>
        )}
      </Text>
      {entry.detail && (
        <Text fontSize="sm" overflowWrap="anywhere">
          {entry.detail}
        </Text>
      )}
      <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
        Position {entry.position} · correlation{' '}
        <Code size="sm" variant="surface" wordBreak="break-all">
          {entry.correlationId || '—'}
        </Code>
      </Text>
    </Box>
  );
}

/**
 * Admin activity: every unlock attempt, lock, download, verification, rebuild and admin command
 * with its admin, newest first, from the log, narrowed to a group by `?show=`. "Older" pages on with the page's `next`; a stack of the pages seen gives "Newer".
 */
export function AdminActivity() {
  const [searchParams, setSearchParams] = useSearchParams();
  const shown = SHOWN.find((group) => group.id === searchParams.get('show')) ?? SHOWN[0]!;
  const pages = useCursorPages();
  const { restart } = pages;
  // Another group chosen (here, or by Back and Forward): from the newest again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new group restarts the pages
  useEffect(() => restart(), [shown.id]);
  const page = useGetAdminActivityQuery(
    { before: pages.cursor, types: shown.types, limit: PAGE },
    { refetchOnMountOrArgChange: true },
  );
  const show = (id: string) =>
    setSearchParams((old) => {
      const next = new URLSearchParams(old);
      if (id) next.set('show', id);
      else next.delete('show');
      return next;
    });
  const items = page.currentData?.items ?? [];

  return (
    <Surface as="section" aria-labelledby="admin-activity-heading" px={{ base: '3', md: '6' }}>
      <Stack gap="1">
        <Heading as="h2" size="lg" id="admin-activity-heading">
          Admin activity
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Every unlock attempt, lock, download of finance data, verification, rebuild and admin
          command, with the admin who did it, newest first. Times are in your time zone (
          {localZoneLabel()}). The choice below is kept in the address.
        </Text>
      </Stack>
      <Field.Root maxW="sm">
        <Field.Label>Show</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            name="show"
            value={shown.id}
            onChange={(event) => show(event.target.value)}
          >
            {SHOWN.map((group) => (
              <option key={group.id} value={group.id}>
                {group.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <PageStates
        query={page}
        pages={pages}
        errorTitle="Could not load the admin activity"
        empty={{
          title: 'No admin activity yet',
          text: shown.types
            ? `Nothing of "${shown.label}" yet. Choose "Everything" to see every action.`
            : 'Unlocks, downloads, verifications, rebuilds and admin commands (adjustments, blocks, role changes, deletions) appear here as they happen.',
        }}
        end={{ title: 'Nothing older', text: 'This is the first thing any admin did.' }}
      />
      {items.length > 0 && (
        <Stack
          as="ol"
          gap="3"
          aria-label="Admin activity entries"
          aria-busy={page.isFetching}
          opacity={page.isFetching ? 0.7 : 1}
        >
          {items.map((entry) => (
            <ActivityItem key={entry.position} entry={entry} />
          ))}
        </Stack>
      )}
      <PagerNav
        label="Admin activity pages"
        query={page}
        pages={pages}
        backLabel="Newer"
        forwardLabel="Older"
        showNumber
      />
    </Surface>
  );
}
