import type { LibraryItem } from '@astra/contracts';
import { Alert, Button, Heading, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { BookOpen, ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BackLink } from '../../ui/BackLink';
import { LinkButton } from '../../ui/LinkButton';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { notifyError } from '../../ui/toaster';
import { DeleteReadingDialog } from './DeleteReadingDialog';
import { LibraryFilters } from './LibraryFilters';
import { LibraryItemCard } from './LibraryItemCard';
import { useGetLibraryQuery } from './libraryApi';
import { libraryParamsFor, libraryQueryFrom } from './libraryParams';

/** Every reading the user has received: search, filter by app, reopen or delete. */
export default function LibraryPage() {
  const [params, setParams] = useSearchParams();
  const query = libraryQueryFrom(params);
  const { data, isLoading, isFetching, isError, refetch } = useGetLibraryQuery(query, {
    refetchOnMountOrArgChange: true,
  });
  const [pendingDelete, setPendingDelete] = useState<LibraryItem | null>(null);
  // The filter keeps the apps it has seen, so options never vanish while a filter is applied.
  const [apps, setApps] = useState<{ appId: number; appName: string }[]>([]);
  useEffect(() => {
    if (data?.apps.length) setApps(data.apps);
  }, [data?.apps]);

  const failedBefore = useRef(false);
  useEffect(() => {
    if (isError && !failedBefore.current) notifyError('Failed to load your readings');
    failedBefore.current = isError;
  }, [isError]);

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const filtered = Boolean(query.search || query.appId);

  // Deleting the last reading of the last page leaves it empty: show the page before it.
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && query.page > 1) {
      setParams(libraryParamsFor({ ...query, page: pageCount }), { replace: true });
    }
  }, [data, query, pageCount, setParams]);

  const update = useCallback(
    (change: Partial<typeof query>) => {
      setParams((current) =>
        libraryParamsFor({ ...libraryQueryFrom(current), page: 1, ...change }),
      );
    },
    [setParams],
  );
  const onSearch = useCallback((search: string) => update({ search }), [update]);

  return (
    <PageContainer maxW="4xl">
      <PageTitle>Your Cosmic Library</PageTitle>
      <BackLink />
      <Stack gap="1">
        <Heading as="h1" textStyle="pageTitle">
          Your Cosmic Library
        </Heading>
        <Text color="fg.muted">Every reading you have received, to search, reopen and keep.</Text>
      </Stack>

      <LibraryFilters
        search={query.search}
        appId={query.appId}
        apps={apps}
        onSearch={onSearch}
        onAppChange={(appId) => update({ appId })}
      />

      {isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>Failed to load your readings</Alert.Title>
          <Button size="sm" variant="outline" onClick={() => refetch()}>
            Try again
          </Button>
        </Alert.Root>
      )}

      {isLoading && (
        <Stack gap="3">
          <Skeleton h="24" rounded="xl" />
          <Skeleton h="24" rounded="xl" />
        </Stack>
      )}

      {data && data.total === 0 && !filtered && (
        <Surface tone="glow" alignItems="center" textAlign="center" gap="4" py="10">
          <BookOpen aria-hidden size={36} color="var(--chakra-colors-starlight-fg)" />
          <Heading as="h2" size="lg">
            Your library is waiting for its first reading
          </Heading>
          <Text color="fg.muted" maxW="md">
            Every reading you generate is kept here, ready to reopen whenever you like.
          </Text>
          <LinkButton to="/app">Get Your First Reading</LinkButton>
        </Surface>
      )}

      {data && data.total === 0 && filtered && (
        <Surface alignItems="flex-start" gap="3">
          <Text>No readings match your search.</Text>
          <Button size="sm" variant="outline" onClick={() => setParams({})}>
            Clear filters
          </Button>
        </Surface>
      )}

      {data && data.items.length > 0 && (
        <Stack gap="4" aria-busy={isFetching}>
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {data.total} {data.total === 1 ? 'reading' : 'readings'}
            {filtered ? ' found' : ''}
          </Text>
          <Stack as="ul" gap="3" listStyleType="none" aria-label="Saved readings">
            {data.items.map((item) => (
              <LibraryItemCard key={item.readingId} item={item} onDelete={setPendingDelete} />
            ))}
          </Stack>
          {pageCount > 1 && (
            <HStack as="nav" aria-label="Library pages" justify="space-between" wrap="wrap">
              <Button
                size="sm"
                variant="outline"
                disabled={query.page <= 1 || isFetching}
                onClick={() => update({ page: query.page - 1 })}
              >
                <ChevronLeft aria-hidden />
                Previous page
              </Button>
              <Text fontSize="sm" color="fg.muted">
                Page {query.page} of {pageCount}
              </Text>
              <Button
                size="sm"
                variant="outline"
                disabled={query.page >= pageCount || isFetching}
                onClick={() => update({ page: query.page + 1 })}
              >
                Next page
                <ChevronRight aria-hidden />
              </Button>
            </HStack>
          )}
        </Stack>
      )}

      <DeleteReadingDialog item={pendingDelete} onClose={() => setPendingDelete(null)} />
    </PageContainer>
  );
}
