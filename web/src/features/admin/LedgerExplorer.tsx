import { CREDIT_EVENT_LABELS, type CreditEventType } from '@astra/contracts';
import {
  Button,
  Field,
  Fieldset,
  Heading,
  HStack,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Surface } from '../../ui/Surface';
import { AuditEntryTable } from './AuditEntryTable';
import { formatCount, localZoneLabel } from './adminFormat';
import { type ActorKind, useGetAuditLedgerQuery } from './auditApi';
import { dayEndExclusive, dayStart, EVENT_TYPES, isUserId } from './auditFormat';
import { PagerNav, PageStates, useCursorPages } from './CursorPages';

interface Filters {
  types: CreditEventType[];
  actor: ActorKind | '';
  userId: string;
  fromDay: string;
  toDay: string;
  limit: number;
}

const NO_FILTERS: Filters = { types: [], actor: '', userId: '', fromDay: '', toDay: '', limit: 25 };
const PAGE_SIZES = [10, 25, 50, 100, 200];
const ACTORS: readonly string[] = ['user', 'admin', 'system', 'stripe'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filters in the address, beside `?tab=ledger`: `types` (comma separated), `actor`,
 * `userId`, `from` and `to` (days of UTC, both included) and `limit`. A filtered view is a link
 * to send; what is not a valid filter is left out.
 */
const FILTER_KEYS = ['types', 'actor', 'userId', 'from', 'to', 'limit'] as const;

function filtersOf(params: URLSearchParams): Filters {
  const types = (params.get('types') ?? '').split(',');
  const actor = params.get('actor') ?? '';
  const userId = params.get('userId') ?? '';
  const fromDay = params.get('from') ?? '';
  const toDay = params.get('to') ?? '';
  const limit = Number(params.get('limit'));
  return {
    types: EVENT_TYPES.filter((type) => types.includes(type)),
    actor: ACTORS.includes(actor) ? (actor as ActorKind) : '',
    userId: isUserId(userId) ? userId : '',
    fromDay: DAY.test(fromDay) ? fromDay : '',
    toDay: DAY.test(toDay) && !(DAY.test(fromDay) && fromDay > toDay) ? toDay : '',
    limit: PAGE_SIZES.includes(limit) ? limit : NO_FILTERS.limit,
  };
}

/** The address's parameters with `filters` in place of the old ones (the others kept). */
function withFilters(params: URLSearchParams, filters: Filters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FILTER_KEYS) next.delete(key);
  const values: [string, string][] = [
    ['types', filters.types.join(',')],
    ['actor', filters.actor],
    ['userId', filters.userId],
    ['from', filters.fromDay],
    ['to', filters.toDay],
    ['limit', filters.limit === NO_FILTERS.limit ? '' : String(filters.limit)],
  ];
  for (const [key, value] of values) if (value) next.set(key, value);
  return next;
}

function describeFilters(filters: Filters): string {
  const parts = [
    filters.types.length > 0 ? filters.types.join(', ') : 'every event type',
    filters.actor ? `by ${filters.actor}` : null,
    filters.userId ? `of user ${filters.userId}` : null,
    filters.fromDay ? `from ${filters.fromDay}` : null,
    filters.toDay ? `through ${filters.toDay}` : null,
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * The global ledger explorer: credit events straight from the log, filtered by type, actor, user
 * and UTC date range (the filters live in the address, `filtersOf`), paged by position (Next uses
 * the page's `next`; a stack of the pages seen gives Previous).
 */
export function LedgerExplorer() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The applied filters are the address's: a bookmark, a shared link or Back restores them.
  const filters = useMemo(() => filtersOf(searchParams), [searchParams]);
  const [draft, setDraft] = useState<Filters>(filters);
  const [userIdError, setUserIdError] = useState<string | null>(null);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const pages = useCursorPages();
  const { restart } = pages;
  const applied = JSON.stringify(filters);
  // The address changed (applied here, or Back and Forward): the form shows it, from page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `applied` is `filters`, by value
  useEffect(() => {
    setDraft(filters);
    restart();
  }, [applied]);
  const page = useGetAuditLedgerQuery(
    {
      types: filters.types.length > 0 ? filters.types : undefined,
      actor: filters.actor || undefined,
      userId: filters.userId || undefined,
      from: dayStart(filters.fromDay),
      to: dayEndExclusive(filters.toDay),
      after: pages.cursor,
      limit: filters.limit,
    },
    { refetchOnMountOrArgChange: true },
  );
  const items = page.currentData?.items ?? [];

  const toggleType = (type: CreditEventType) =>
    setDraft((old) => ({
      ...old,
      types: old.types.includes(type)
        ? old.types.filter((t) => t !== type)
        : EVENT_TYPES.filter((t) => t === type || old.types.includes(t)),
    }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const userId = draft.userId.trim();
    const badUser = userId && !isUserId(userId) ? 'A user id is a UUID, like 0b6f…-…' : null;
    const badRange =
      draft.fromDay && draft.toDay && draft.fromDay > draft.toDay
        ? 'The range ends before it starts.'
        : null;
    setUserIdError(badUser);
    setRangeError(badRange);
    if (badUser || badRange) return;
    setSearchParams((old) => withFilters(old, { ...draft, userId }));
  };

  const clear = () => {
    setDraft(NO_FILTERS);
    setUserIdError(null);
    setRangeError(null);
    setSearchParams((old) => withFilters(old, NO_FILTERS));
  };

  const first = items[0]?.position;
  const last = items[items.length - 1]?.position;

  return (
    <Stack gap="5">
      <Surface as="section" aria-labelledby="explorer-filters-heading" gap="4">
        <Stack gap="1">
          <Heading as="h2" size="lg" id="explorer-filters-heading">
            Ledger explorer
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            Every credit event in the log's order, oldest first. The date filters are days of UTC
            (both ends included); times in the table are in your time zone, {localZoneLabel()}, each
            with its zone. The filters are kept in the address: copy it to share this view.
          </Text>
        </Stack>
        <form onSubmit={apply} noValidate aria-label="Ledger filters">
          <Stack gap="4">
            <Fieldset.Root>
              <Fieldset.Legend fontSize="sm" fontWeight="medium">
                Event types
              </Fieldset.Legend>
              <Fieldset.HelperText fontSize="xs">
                {draft.types.length === 0
                  ? 'None chosen: every type.'
                  : `${draft.types.length} chosen.`}
              </Fieldset.HelperText>
              <HStack gap="1.5" wrap="wrap" mt="2">
                {EVENT_TYPES.map((type) => {
                  const on = draft.types.includes(type);
                  return (
                    <Button
                      key={type}
                      size="xs"
                      variant={on ? 'solid' : 'outline'}
                      aria-pressed={on}
                      title={CREDIT_EVENT_LABELS[type].audit}
                      onClick={() => toggleType(type)}
                    >
                      {type}
                    </Button>
                  );
                })}
              </HStack>
            </Fieldset.Root>
            <SimpleGrid columns={{ base: 1, sm: 2, lg: 5 }} gap="3">
              <Field.Root>
                <Field.Label>Actor</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field
                    name="actor"
                    value={draft.actor}
                    onChange={(event) =>
                      setDraft((old) => ({ ...old, actor: event.target.value as ActorKind | '' }))
                    }
                  >
                    <option value="">Anyone</option>
                    <option value="user">A user</option>
                    <option value="admin">An admin</option>
                    <option value="system">The system</option>
                    <option value="stripe">Stripe</option>
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Field.Root invalid={Boolean(userIdError)}>
                <Field.Label>User id</Field.Label>
                <Input
                  name="user-id"
                  value={draft.userId}
                  placeholder="Any user"
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(event) => setDraft((old) => ({ ...old, userId: event.target.value }))}
                />
                <Field.ErrorText>{userIdError}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={Boolean(rangeError)}>
                <Field.Label>From (UTC)</Field.Label>
                <Input
                  type="date"
                  name="from"
                  value={draft.fromDay}
                  onChange={(event) => setDraft((old) => ({ ...old, fromDay: event.target.value }))}
                />
                <Field.ErrorText>{rangeError}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={Boolean(rangeError)}>
                <Field.Label>To (UTC)</Field.Label>
                <Input
                  type="date"
                  name="to"
                  value={draft.toDay}
                  onChange={(event) => setDraft((old) => ({ ...old, toDay: event.target.value }))}
                />
              </Field.Root>
              <Field.Root>
                <Field.Label>Rows per page</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field
                    name="limit"
                    value={String(draft.limit)}
                    onChange={(event) =>
                      setDraft((old) => ({ ...old, limit: Number(event.target.value) }))
                    }
                  >
                    {PAGE_SIZES.map((size) => (
                      <option key={size} value={size}>
                        {size}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
            </SimpleGrid>
            <HStack gap="2" wrap="wrap">
              <Button type="submit">Apply filters</Button>
              <Button variant="outline" onClick={clear}>
                Clear
              </Button>
            </HStack>
          </Stack>
        </form>
      </Surface>

      <Stack as="section" aria-labelledby="explorer-results-heading" gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as="h3" size="md" id="explorer-results-heading">
            Events
          </Heading>
          <Text fontSize="sm" color="fg.muted" aria-live="polite" data-testid="explorer-summary">
            {page.currentData
              ? items.length > 0
                ? `Page ${pages.number}: ${formatCount(items.length)} ${items.length === 1 ? 'event' : 'events'}, positions ${first} to ${last}`
                : `Page ${pages.number}: no events`
              : 'Loading...'}
          </Text>
        </HStack>
        <PageStates
          query={page}
          pages={pages}
          errorTitle="Could not read the ledger"
          empty={{
            title: 'No events match these filters',
            text: `Nothing for ${describeFilters(filters)}. Widen the dates, choose other types, or clear the filters.`,
          }}
          end={{ title: 'No more events', text: 'This is the end of the log for these filters.' }}
        />
        {items.length > 0 && <AuditEntryTable entries={items} label="Ledger events" showUser />}
        <PagerNav
          label="Ledger pages"
          query={page}
          pages={pages}
          backLabel="Previous page"
          forwardLabel="Next page"
        />
      </Stack>
    </Stack>
  );
}
