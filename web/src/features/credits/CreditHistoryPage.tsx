import { ledgerEntryDetail, ledgerEntryLabel } from '@astra/contracts';
import {
  Alert,
  Badge,
  Button,
  Heading,
  HStack,
  SimpleGrid,
  Skeleton,
  Stack,
  Stat,
  Table,
  Text,
} from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useTimeZone } from '../../app/timeZone';
import { BackLink } from '../../ui/BackLink';
import { LinkButton } from '../../ui/LinkButton';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { useCurrentUser } from '../auth/authApi';
import { BalanceChart } from './BalanceChart';
import { useGetLedgerQuery } from './creditsApi';
import { LedgerReference } from './LedgerReference';
import {
  formatLedgerDate,
  LEDGER_KIND_PALETTE,
  ledgerReadingPath,
  signedAmount,
} from './ledgerLabels';

const pageFrom = (raw: string | null) => Math.max(1, Number.parseInt(raw ?? '1', 10) || 1);

/** The signed-in person's own credit ledger: every grant, spend, refund and adjustment. */
export default function CreditHistoryPage() {
  const { me } = useCurrentUser();
  const timeZone = useTimeZone();
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const { data, isLoading, isFetching, isError, refetch } = useGetLedgerQuery(page, {
    refetchOnMountOrArgChange: true,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const goTo = (next: number) => setParams(next === 1 ? {} : { page: String(next) });

  return (
    <PageContainer maxW="5xl">
      <PageTitle>Credit History</PageTitle>
      <BackLink />
      <Stack gap="1">
        <Heading as="h1" textStyle="pageTitle">
          Credit History
        </Heading>
        <Text color="fg.muted">
          Every credit you have received or spent, with your balance after each change.
        </Text>
      </Stack>

      {me && (
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <Surface>
            <Stat.Root>
              <Stat.Label>Current balance</Stat.Label>
              <Stat.ValueText>{me.remainingCredits} credits</Stat.ValueText>
            </Stat.Root>
          </Surface>
          <Surface>
            <Stat.Root>
              <Stat.Label>Received in total</Stat.Label>
              <Stat.ValueText>{me.totalCredits} credits</Stat.ValueText>
            </Stat.Root>
          </Surface>
        </SimpleGrid>
      )}

      {isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>We couldn't load your credit history.</Alert.Title>
          <Button size="sm" variant="outline" onClick={() => refetch()}>
            Try again
          </Button>
        </Alert.Root>
      )}

      {isLoading && <Skeleton h="64" rounded="xl" />}

      {data && data.items.length === 0 && (
        <Surface alignItems="flex-start">
          <Text>No credit changes yet. Your first reading will appear here.</Text>
          <LinkButton to="/app">Back to Dashboard</LinkButton>
        </Surface>
      )}

      {data && data.items.length > 0 && (
        <>
          <Surface as="section" aria-labelledby="balance-heading">
            <Heading as="h2" size="md" id="balance-heading">
              Balance Over Time
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {pageCount > 1
                ? `The ${data.items.length} changes on this page, oldest on the left.`
                : 'Oldest on the left, most recent on the right.'}
            </Text>
            <BalanceChart entries={data.items} />
          </Surface>

          <Surface
            as="section"
            aria-labelledby="entries-heading"
            aria-busy={isFetching}
            px={{ base: '3', md: '6' }}
          >
            <Heading as="h2" size="md" id="entries-heading">
              All Changes
            </Heading>
            <Table.ScrollArea borderWidth="1px" rounded="md">
              <Table.Root size="sm" striped>
                <Table.Caption captionSide="top" srOnly>
                  Credit changes, newest first
                </Table.Caption>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader scope="col" hideBelow="md">
                      Date
                    </Table.ColumnHeader>
                    <Table.ColumnHeader scope="col">Description</Table.ColumnHeader>
                    <Table.ColumnHeader scope="col" textAlign="end">
                      Change
                    </Table.ColumnHeader>
                    <Table.ColumnHeader scope="col" textAlign="end" pe={{ base: '2', md: '3' }}>
                      Balance
                    </Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.items.map((entry) => {
                    const detail = ledgerEntryDetail(entry);
                    const readingPath = ledgerReadingPath(entry);
                    return (
                      <Table.Row key={entry.eventId}>
                        <Table.Cell whiteSpace="nowrap" color="fg.muted" hideBelow="md">
                          <time dateTime={entry.occurredAt}>
                            {formatLedgerDate(entry.occurredAt, timeZone)}
                          </time>
                        </Table.Cell>
                        <Table.Cell whiteSpace="normal" ps={{ base: '2', md: '3' }}>
                          <Stack gap="1">
                            <HStack gap="2" wrap="wrap">
                              <Badge
                                colorPalette={LEDGER_KIND_PALETTE[entry.kind]}
                                variant="subtle"
                              >
                                {ledgerEntryLabel(entry)}
                              </Badge>
                              {detail && <Text as="span">{detail}</Text>}
                              {readingPath && (
                                <TextLink to={readingPath} fontSize="sm">
                                  View reading
                                </TextLink>
                              )}
                            </HStack>
                            <LedgerReference reference={entry.reference} />
                            {/* On phones the date column folds into the description. */}
                            <Text fontSize="xs" color="fg.muted" hideFrom="md">
                              <time dateTime={entry.occurredAt}>
                                {formatLedgerDate(entry.occurredAt, timeZone)}
                              </time>
                            </Text>
                          </Stack>
                        </Table.Cell>
                        <Table.Cell
                          textAlign="end"
                          fontWeight="semibold"
                          fontVariantNumeric="tabular-nums"
                          color={
                            entry.amount < 0 ? 'fg.error' : entry.amount > 0 ? 'fg.success' : 'fg'
                          }
                        >
                          {signedAmount(entry.amount)}
                        </Table.Cell>
                        <Table.Cell
                          textAlign="end"
                          fontVariantNumeric="tabular-nums"
                          pe={{ base: '2', md: '3' }}
                        >
                          {entry.balanceAfter}
                        </Table.Cell>
                      </Table.Row>
                    );
                  })}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
            <HStack as="nav" aria-label="Credit history pages" justify="space-between" wrap="wrap">
              <Button
                size="sm"
                variant="outline"
                disabled={page <= 1 || isFetching}
                onClick={() => goTo(page - 1)}
              >
                <ChevronLeft aria-hidden />
                Previous page
              </Button>
              <Text fontSize="sm" color="fg.muted" aria-live="polite">
                Page {page} of {pageCount} · {data.total} {data.total === 1 ? 'entry' : 'entries'}
              </Text>
              <Button
                size="sm"
                variant="outline"
                disabled={page >= pageCount || isFetching}
                onClick={() => goTo(page + 1)}
              >
                Next page
                <ChevronRight aria-hidden />
              </Button>
            </HStack>
          </Surface>
        </>
      )}
    </PageContainer>
  );
}
