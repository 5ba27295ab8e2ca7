import { type AuditEntry, adminMessages, ERASED_EMAIL, type UserBalanceAt } from '@astra/contracts';
import {
  Alert,
  Badge,
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
import { ArrowLeft, History } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { LinkButton } from '../../ui/LinkButton';
import { Surface } from '../../ui/Surface';
import { AuditEntryTable } from './AuditEntryTable';
import { EmptyNote, QueryError } from './AuditStates';
import { useGetAdminUserLedgerQuery } from './adminApi';
import { formatCount } from './adminFormat';
import { useGetUserAuditLedgerInfiniteQuery, useGetUserBalanceAtQuery } from './auditApi';
import { formatInstant, formatMoneyList, fromLocalInput, toLocalInput } from './auditFormat';
import { BalanceChart } from './BalanceChart';

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function BalanceAtResult({ answer, entries }: { answer: UserBalanceAt; entries: AuditEntry[] }) {
  // The replay's balance against the history's balance after at the same position.
  const entry = answer.position ? entries.find((e) => e.position === answer.position) : undefined;
  const matches = entry ? entry.balanceAfter === answer.balance : null;
  return (
    <Stack gap="3">
      <DataList.Root
        orientation="vertical"
        size="sm"
        display="grid"
        gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }}
        gap="3"
      >
        <DataList.Item>
          <DataList.ItemLabel>Balance</DataList.ItemLabel>
          <DataList.ItemValue
            fontSize="xl"
            fontWeight="semibold"
            fontVariantNumeric="tabular-nums"
            data-testid="balance-at-value"
          >
            {formatCount(answer.balance)} credits
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>As of</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={answer.at}>{formatInstant(answer.at)}</time>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Events replayed</DataList.ItemLabel>
          <DataList.ItemValue fontVariantNumeric="tabular-nums">
            {formatCount(answer.events)}
            {answer.position ? ` (through position ${answer.position})` : ''}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Deferred revenue</DataList.ItemLabel>
          <DataList.ItemValue>{formatMoneyList(answer.deferred)}</DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <Stack gap="1">
        <Text fontSize="sm" fontWeight="semibold">
          Lots held
        </Text>
        <HStack gap="2" wrap="wrap" aria-label="Lots held" role="list">
          {(['purchased', 'subscription', 'free', 'promotional'] as const).map((source) => (
            <Badge key={source} variant="outline" size="lg" role="listitem">
              {source} {formatCount(answer.lots[source])}
            </Badge>
          ))}
        </HStack>
      </Stack>
      {answer.events === 0 && (
        <Text fontSize="sm" color="fg.muted">
          The account had no credit events yet at this instant.
        </Text>
      )}
      {matches === true && (
        <Text fontSize="sm" color="fg.success">
          Matches the history: the balance after position {answer.position} is{' '}
          {formatCount(entry!.balanceAfter)}.
        </Text>
      )}
      {matches === false && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>
            The replay says {formatCount(answer.balance)}, but the history's balance after position{' '}
            {answer.position} is {formatCount(entry!.balanceAfter)}.
          </Alert.Title>
        </Alert.Root>
      )}
    </Stack>
  );
}

/** "Balance as of": a date-time picker and the account replayed up to that instant. */
function BalanceAsOf({
  userId,
  at,
  onAt,
  entries,
}: {
  userId: string;
  at: string | undefined;
  onAt: (at: string | undefined) => void;
  entries: AuditEntry[];
}) {
  const [draft, setDraft] = useState(at ? toLocalInput(at) : '');
  const [shownFor, setShownFor] = useState(at);
  // A row's "Balance here" sets the instant from outside: the field follows.
  if (shownFor !== at) {
    setShownFor(at);
    setDraft(at ? toLocalInput(at) : '');
  }
  const [invalid, setInvalid] = useState(false);
  const balance = useGetUserBalanceAtQuery({ userId, at }, { refetchOnMountOrArgChange: true });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const iso = fromLocalInput(draft);
    setInvalid(Boolean(draft) && !iso);
    if (draft && !iso) return;
    onAt(iso);
  };

  return (
    <Surface as="section" aria-labelledby="balance-as-of-heading" gap="4">
      <Stack gap="1">
        <Heading as="h3" size="md" id="balance-as-of-heading">
          Balance as of
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          The account replayed from the event log up to an instant, with what its balance was made
          of.
        </Text>
      </Stack>
      <Stack
        as="form"
        onSubmit={submit}
        direction={{ base: 'column', md: 'row' }}
        align={{ md: 'flex-end' }}
        gap="3"
      >
        <Field.Root invalid={invalid} maxW={{ md: 'xs' }}>
          <Field.Label>Balance as of (date and time)</Field.Label>
          <Input
            type="datetime-local"
            name="balance-at"
            step="1"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          {invalid ? (
            <Field.ErrorText>Please enter a date and time.</Field.ErrorText>
          ) : (
            <Field.HelperText>Your time zone ({timeZone}). Empty: now.</Field.HelperText>
          )}
        </Field.Root>
        <HStack gap="2" pb={{ md: '6' }}>
          <Button type="submit" loading={balance.isFetching} loadingText="Replaying...">
            Show balance
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              setDraft('');
              setInvalid(false);
              onAt(undefined);
            }}
          >
            Now
          </Button>
        </HStack>
      </Stack>
      <Stack aria-live="polite" aria-busy={balance.isFetching}>
        {balance.isError ? (
          <QueryError
            title="Could not replay the balance"
            error={balance.error}
            onRetry={() => balance.refetch()}
          />
        ) : balance.data ? (
          <BalanceAtResult answer={balance.data} entries={entries} />
        ) : (
          <Skeleton h="24" rounded="md" />
        )}
      </Stack>
    </Surface>
  );
}

/**
 * A user's audit ledger: every credit event of their stream from the log, oldest first, with
 * actor, cause, correlation id and money; the running balance as a chart; the balance as of any
 * instant.
 */
export function UserAuditLedger({ userId }: { userId: string }) {
  const ledger = useGetUserAuditLedgerInfiniteQuery(userId, { refetchOnMountOrArgChange: true });
  const profile = useGetAdminUserLedgerQuery(userId);
  const [at, setAt] = useState<string | undefined>(undefined);
  // The event a chosen instant ends at is marked in the table (the same request as below).
  const asOf = useGetUserBalanceAtQuery({ userId, at }, { skip: !at });
  const asOfPosition = at ? (asOf.currentData?.position ?? null) : null;
  const entries = useMemo(
    () => ledger.data?.pages.flatMap((page) => page.items) ?? [],
    [ledger.data],
  );
  const points = useMemo(
    () => entries.map((entry) => ({ at: entry.occurredAt, balance: entry.balanceAfter })),
    [entries],
  );
  const person = profile.data?.user;
  const logged = entries[entries.length - 1]?.email ?? null;
  // An erased user's log names no e-mail (`ERASED_EMAIL`): they are "Erased user" and their id.
  const email = person?.email ?? (logged === ERASED_EMAIL ? null : logged);
  const name =
    person?.fullName ?? email ?? (logged === ERASED_EMAIL ? adminMessages.erasedUser : userId);

  return (
    <Stack gap="5">
      <HStack gap="2" wrap="wrap">
        <LinkButton to="/admin?tab=ledger" variant="ghost" size="sm">
          <ArrowLeft aria-hidden />
          Ledger explorer
        </LinkButton>
        <LinkButton to="/admin" variant="ghost" size="sm">
          All users
        </LinkButton>
      </HStack>
      <Stack gap="1">
        <Heading as="h2" size="lg" id="user-audit-heading">
          <HStack as="span" gap="2">
            <History aria-hidden size={20} />
            Audit ledger: {name}
          </HStack>
        </Heading>
        <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
          {email && email !== name ? `${email} · ` : ''}user id {userId}
        </Text>
      </Stack>

      {ledger.isError && (
        <QueryError
          title="Could not load this user's ledger from the log"
          error={ledger.error}
          onRetry={() => ledger.refetch()}
        />
      )}
      {ledger.isLoading && <Skeleton h="48" rounded="lg" />}
      {ledger.data && entries.length === 0 && (
        <EmptyNote title="No credit events for this user">
          The log holds no credit event for this account: it may never have signed in, or the id is
          not a user's.
        </EmptyNote>
      )}
      {entries.length > 0 && (
        <Surface as="section" aria-labelledby="running-balance-heading" gap="3">
          <Heading as="h3" size="md" id="running-balance-heading">
            Running balance
          </Heading>
          <BalanceChart points={points} marker={at} />
        </Surface>
      )}
      {ledger.data && <BalanceAsOf userId={userId} at={at} onAt={setAt} entries={entries} />}
      {entries.length > 0 && (
        <Stack as="section" aria-labelledby="user-events-heading" gap="3">
          <HStack justify="space-between" wrap="wrap" gap="2">
            <Heading as="h3" size="md" id="user-events-heading">
              Credit events
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {formatCount(entries.length)} {entries.length === 1 ? 'event' : 'events'}
              {ledger.hasNextPage ? ' so far' : ''}, oldest first
            </Text>
          </HStack>
          <AuditEntryTable
            entries={entries}
            label="Credit events of this user"
            onBalanceAt={(entry) => setAt(entry.occurredAt)}
            highlight={asOfPosition}
          />
          {ledger.hasNextPage && (
            <Button
              variant="outline"
              alignSelf="center"
              onClick={() => ledger.fetchNextPage()}
              loading={ledger.isFetchingNextPage}
              loadingText="Loading..."
            >
              Load more events
            </Button>
          )}
        </Stack>
      )}
    </Stack>
  );
}
