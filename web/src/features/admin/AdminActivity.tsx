import type { AdminActivityEntry } from '@astra/contracts';
import { Badge, Box, Code, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { useGetAdminActivityQuery } from './auditApi';
import { formatInstant, userLedgerPath } from './auditFormat';
import { PagerNav, PageStates, useCursorPages } from './CursorPages';

const PAGE = 25;

/** What each action is, for a person reading the list; unknown ones by their event type. */
const ACTION_LABEL: Record<string, string> = {
  AdminUnlocked: 'Unlocked the admin panel',
  AdminUnlockFailed: 'Failed unlock attempt',
  CreditsAdjusted: 'Adjusted credits',
  UserBlocked: 'Blocked a user',
  UserUnblocked: 'Unblocked a user',
  UserRoleChanged: 'Changed a role',
  UserDeleted: 'Deleted a user',
  AdminRegistered: 'Admin registered',
  AdminRevoked: 'Admin revoked',
};

const actionPalette = (action: string) =>
  action === 'AdminUnlockFailed' || action.includes('Deleted') || action.includes('Blocked')
    ? 'red'
    : action.startsWith('Admin')
      ? 'gray'
      : action === 'CreditsAdjusted'
        ? 'orange'
        : 'purple';

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
          <Badge colorPalette={actionPalette(entry.action)} variant="subtle">
            {entry.action}
          </Badge>
          <Text fontWeight="semibold">{ACTION_LABEL[entry.action] ?? entry.action}</Text>
        </HStack>
        <Text fontSize="sm" color="fg.muted" flexShrink={0}>
          <time dateTime={entry.occurredAt}>{formatInstant(entry.occurredAt)}</time>
        </Text>
      </Stack>
      <Text fontSize="sm" overflowWrap="anywhere">
        <Text as="span" color="fg.muted">
          Admin{' '}
        </Text>
        {entry.adminEmail ?? entry.adminId}
        {entry.targetUserId && !self && (
          <>
            <Text as="span" color="fg.muted">
              {' '}
              on{' '}
            </Text>
            <TextLink to={userLedgerPath(entry.targetUserId)}>
              {entry.targetEmail ?? entry.targetUserId}
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
 * Admin activity: every unlock attempt and admin command with its admin, newest first, from the
 * log. "Older" pages on with the page's `next`; a stack of the pages seen gives "Newer".
 */
export function AdminActivity() {
  const pages = useCursorPages();
  const page = useGetAdminActivityQuery(
    { before: pages.cursor, limit: PAGE },
    { refetchOnMountOrArgChange: true },
  );
  const items = page.currentData?.items ?? [];

  return (
    <Surface as="section" aria-labelledby="admin-activity-heading" px={{ base: '3', md: '6' }}>
      <Stack gap="1">
        <Heading as="h2" size="lg" id="admin-activity-heading">
          Admin activity
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Every unlock attempt and admin command, with the admin who did it, newest first.
        </Text>
      </Stack>
      <PageStates
        query={page}
        pages={pages}
        errorTitle="Could not load the admin activity"
        empty={{
          title: 'No admin activity yet',
          text: 'Unlocks and admin commands (adjustments, blocks, role changes, deletions) appear here as they happen.',
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
