import type { ExportFormat, LedgerExportChecksum } from '@astra/contracts';
import {
  Button,
  Code,
  DataList,
  Field,
  Heading,
  HStack,
  Input,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ChevronLeft, ChevronRight, Download, RefreshCw } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Surface } from '../../ui/Surface';
import { QueryError } from './AuditStates';
import { formatCount } from './adminFormat';
import {
  ledgerExportUrl,
  monthlyReportCsvUrl,
  useGetExportChecksumQuery,
  useGetMonthlyReportQuery,
  useGetPayoutReportQuery,
  useGetTotalBalanceAtQuery,
} from './auditApi';
import {
  currentUtcMonth,
  dayEndExclusive,
  dayStart,
  formatInstant,
  formatMoneyList,
  formatMonth,
  fromLocalInput,
  monthDays,
} from './auditFormat';
import {
  CreditRollForwardTable,
  DeferredAgingTable,
  MoneyRollForwardTable,
  MovementsChart,
  PayoutTable,
  ReportFlags,
  ReportPeriod,
  RevenueTable,
  TaxByCountryTable,
} from './FinanceReport';
import { MonthClosing } from './MonthClosing';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const shiftMonth = (month: string, by: number) => {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 1 + by, 1)).toISOString().slice(0, 7);
};

const FORMAT_LABEL: Record<ExportFormat, string> = {
  csv: 'CSV',
  jsonl: 'JSON lines',
  journal: 'Journal (hledger)',
};

/** One format's download link and the checksum of the same range. */
function ExportRow({
  format,
  range,
}: {
  format: ExportFormat;
  range: { from?: string; to?: string };
}) {
  const checksum = useGetExportChecksumQuery(
    { format, ...range },
    { refetchOnMountOrArgChange: true },
  );
  return (
    <Stack
      gap="3"
      borderWidth="1px"
      borderColor="border"
      rounded="lg"
      p={{ base: '3', md: '4' }}
      data-format={format}
    >
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="2">
        <Heading as="h4" size="sm">
          {FORMAT_LABEL[format]}
        </Heading>
        <HStack gap="2" wrap="wrap">
          <Button asChild size="sm">
            {/* The server names the file (Content-Disposition), as the CLI's export is named. */}
            <a href={ledgerExportUrl(format, range)} download>
              <Download aria-hidden />
              Download {FORMAT_LABEL[format]}
            </a>
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => checksum.refetch()}
            loading={checksum.isFetching}
            aria-label={`Recompute the ${FORMAT_LABEL[format]} checksum`}
          >
            <RefreshCw aria-hidden />
          </Button>
        </HStack>
      </Stack>
      {checksum.isError ? (
        <QueryError
          title={`Could not compute the ${FORMAT_LABEL[format]} checksum`}
          error={checksum.error}
          onRetry={() => checksum.refetch()}
        />
      ) : checksum.data ? (
        <ChecksumFacts checksum={checksum.data} />
      ) : (
        <Skeleton h="12" rounded="md" />
      )}
    </Stack>
  );
}

function ChecksumFacts({ checksum }: { checksum: LedgerExportChecksum }) {
  const label = FORMAT_LABEL[checksum.format];
  return (
    <DataList.Root orientation="vertical" size="sm" gap="2">
      <DataList.Item>
        <DataList.ItemLabel>SHA-256 of the {label} file</DataList.ItemLabel>
        <DataList.ItemValue>
          <Code
            size="sm"
            variant="surface"
            wordBreak="break-all"
            data-testid={`checksum-${checksum.format}`}
          >
            {checksum.sha256}
          </Code>
        </DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Size</DataList.ItemLabel>
        <DataList.ItemValue>
          {formatCount(checksum.rows)} {checksum.rows === 1 ? 'row' : 'rows'},{' '}
          {formatCount(checksum.bytes)} bytes
        </DataList.ItemValue>
      </DataList.Item>
    </DataList.Root>
  );
}

/** Exports of the ledger by replay: a UTC date range, CSV and JSON lines, each with its checksum. */
function LedgerExportCard({ month }: { month: string }) {
  const days = monthDays(month);
  const [fromDay, setFromDay] = useState(days.first);
  const [toDay, setToDay] = useState(days.last);
  const [shownMonth, setShownMonth] = useState(month);
  // Another month chosen above: the range follows it.
  if (shownMonth !== month) {
    setShownMonth(month);
    setFromDay(days.first);
    setToDay(days.last);
  }
  const backwards = Boolean(fromDay && toDay && fromDay > toDay);
  const range = backwards ? {} : { from: dayStart(fromDay), to: dayEndExclusive(toDay) };
  const openEnded = !range.to || Date.parse(range.to) > Date.now();

  return (
    <Surface as="section" aria-labelledby="ledger-export-heading" gap="4">
      <Stack gap="1">
        <Heading as="h3" size="md" id="ledger-export-heading">
          Ledger export
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          One row per credit event in log order, made by replaying the log. Compare the SHA-256
          shown with <Code size="sm">sha256sum</Code> of the downloaded file: the same range gives
          the same bytes every time.
        </Text>
      </Stack>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3" maxW={{ md: 'lg' }}>
        <Field.Root invalid={backwards}>
          <Field.Label>Export from (UTC)</Field.Label>
          <Input
            type="date"
            name="export-from"
            value={fromDay}
            onChange={(event) => setFromDay(event.target.value)}
          />
          <Field.ErrorText>The range ends before it starts.</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={backwards}>
          <Field.Label>Export to (UTC, included)</Field.Label>
          <Input
            type="date"
            name="export-to"
            value={toDay}
            onChange={(event) => setToDay(event.target.value)}
          />
        </Field.Root>
      </SimpleGrid>
      {openEnded && !backwards && (
        <Text fontSize="sm" color="fg.warning">
          This range reaches into the future: new events change the file. Compare a file with the
          checksum computed at the same time (recompute it just before or after downloading).
        </Text>
      )}
      {backwards ? (
        <Text fontSize="sm" color="fg.muted">
          Choose a range that starts before it ends to export.
        </Text>
      ) : (
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="3">
          <ExportRow format="csv" range={range} />
          <ExportRow format="jsonl" range={range} />
          <ExportRow format="journal" range={range} />
        </SimpleGrid>
      )}
    </Surface>
  );
}

/** Every account replayed up to an instant: the total balance and deferred revenue then. */
function TotalBalanceCard() {
  const [draft, setDraft] = useState('');
  const [at, setAt] = useState<string | undefined>(undefined);
  const total = useGetTotalBalanceAtQuery({ at }, { refetchOnMountOrArgChange: true });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAt(fromLocalInput(draft));
  };
  return (
    <Surface as="section" aria-labelledby="total-balance-heading" gap="4">
      <Stack gap="1">
        <Heading as="h3" size="md" id="total-balance-heading">
          All balances as of
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Every account replayed up to an instant (your time zone; empty: now).
        </Text>
      </Stack>
      <Stack
        as="form"
        onSubmit={submit}
        direction={{ base: 'column', sm: 'row' }}
        align={{ sm: 'flex-end' }}
        gap="3"
      >
        <Field.Root maxW={{ sm: 'xs' }}>
          <Field.Label>All balances as of (date and time)</Field.Label>
          <Input
            type="datetime-local"
            step="1"
            name="total-balance-at"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        </Field.Root>
        <Button
          type="submit"
          variant="outline"
          loading={total.isFetching}
          loadingText="Replaying..."
        >
          Replay
        </Button>
      </Stack>
      {total.isError ? (
        <QueryError
          title="Could not replay the balances"
          error={total.error}
          onRetry={() => total.refetch()}
        />
      ) : total.data ? (
        <DataList.Root
          orientation="vertical"
          size="sm"
          display="grid"
          gridTemplateColumns={{
            base: 'repeat(2, minmax(0, 1fr))',
            md: 'repeat(4, minmax(0, 1fr))',
          }}
          gap="3"
          aria-live="polite"
        >
          <DataList.Item>
            <DataList.ItemLabel>Credits outstanding</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="semibold" fontVariantNumeric="tabular-nums">
              {formatCount(total.data.balance)}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Accounts</DataList.ItemLabel>
            <DataList.ItemValue>{formatCount(total.data.accounts)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Deferred revenue</DataList.ItemLabel>
            <DataList.ItemValue>{formatMoneyList(total.data.deferred)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>As of</DataList.ItemLabel>
            <DataList.ItemValue flexDirection="column" alignItems="flex-start">
              <time dateTime={total.data.at}>{formatInstant(total.data.at)}</time>
              {total.data.position && (
                <Text as="span" fontSize="xs" color="fg.muted">
                  through position {total.data.position}
                </Text>
              )}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      ) : (
        <Skeleton h="12" rounded="md" />
      )}
    </Surface>
  );
}

/** A part of the month report under its heading. */
function ReportPart({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="2" minW="0">
      <Heading as="h3" size="md">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/**
 * Finance: the month's roll-forward by replay (credits and money per currency) with its flags
 * first, a chart of the movements, revenue by line, deferred revenue by purchase month, tax by
 * country, closing the month, the month report as CSV, the ledger export (CSV, JSON lines, the
 * journal) with checksums, and the total balance as of any instant.
 */
export function FinanceView() {
  const [month, setMonth] = useState(currentUtcMonth);
  const [draft, setDraft] = useState(month);
  const report = useGetMonthlyReportQuery(month, { refetchOnMountOrArgChange: true });
  const payouts = useGetPayoutReportQuery(month, { refetchOnMountOrArgChange: true });
  const pick = (next: string) => {
    setDraft(next);
    if (MONTH.test(next)) setMonth(next);
  };

  return (
    <Stack gap="5">
      <Surface as="section" aria-labelledby="finance-heading" gap="4">
        <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" gap="3">
          <Stack gap="1">
            <Heading as="h2" size="lg" id="finance-heading">
              Finance
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              The month's roll-forward, made by replaying the event log up to the month's end
              (months of the finance time zone).
            </Text>
          </Stack>
          <HStack gap="2" align="flex-end" wrap="wrap">
            <Button
              variant="outline"
              size="sm"
              aria-label="Previous month"
              onClick={() => pick(shiftMonth(month, -1))}
            >
              <ChevronLeft aria-hidden />
            </Button>
            <Field.Root w="auto">
              <Field.Label>Month</Field.Label>
              <Input
                type="month"
                name="report-month"
                size="sm"
                value={draft}
                onChange={(event) => pick(event.target.value)}
              />
            </Field.Root>
            <Button
              variant="outline"
              size="sm"
              aria-label="Next month"
              onClick={() => pick(shiftMonth(month, 1))}
            >
              <ChevronRight aria-hidden />
            </Button>
          </HStack>
        </Stack>

        {report.isError && (
          <QueryError
            title={`Could not make the report of ${formatMonth(month)}`}
            error={report.error}
            onRetry={() => report.refetch()}
          />
        )}
        {report.isFetching && !report.currentData && <Skeleton h="64" rounded="lg" />}
        {report.currentData && (
          <Stack gap="5" aria-busy={report.isFetching}>
            <ReportPeriod report={report.currentData} />
            <MonthClosing report={report.currentData} />
            <ReportFlags report={report.currentData} />
            <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5" alignItems="start">
              <Stack gap="2" minW="0">
                <Heading as="h3" size="md" id="credit-roll-heading">
                  Credits
                </Heading>
                <CreditRollForwardTable report={report.currentData} />
              </Stack>
              <Stack gap="2" minW="0">
                <MovementsChart report={report.currentData} />
              </Stack>
            </SimpleGrid>
            <ReportPart title="Money">
              <MoneyRollForwardTable report={report.currentData} />
            </ReportPart>
            <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5" alignItems="start">
              <ReportPart title="Revenue by line">
                <RevenueTable report={report.currentData} />
              </ReportPart>
              <ReportPart title="Deferred revenue by purchase month">
                <DeferredAgingTable report={report.currentData} />
              </ReportPart>
              <ReportPart title="Tax by country and rate">
                <TaxByCountryTable report={report.currentData} />
              </ReportPart>
            </SimpleGrid>
            <Stack gap="2" minW="0">
              <Heading as="h3" size="md">
                Payouts
              </Heading>
              {payouts.isError && (
                <QueryError
                  title={`Could not tie the payouts of ${formatMonth(month)} to the bank`}
                  error={payouts.error}
                  onRetry={() => payouts.refetch()}
                />
              )}
              {payouts.currentData && <PayoutTable report={payouts.currentData} />}
            </Stack>
            <Stack
              direction={{ base: 'column', md: 'row' }}
              justify="space-between"
              align={{ md: 'center' }}
              gap="3"
            >
              <Text fontSize="xs" color="fg.muted">
                {formatCount(report.currentData.eventsReplayed)} credit events replayed, through
                position {report.currentData.through}.
              </Text>
              <Button asChild size="sm" variant="outline">
                <a href={monthlyReportCsvUrl(month)} download>
                  <Download aria-hidden />
                  Download month report (CSV)
                </a>
              </Button>
            </Stack>
          </Stack>
        )}
      </Surface>
      <LedgerExportCard month={month} />
      <TotalBalanceCard />
    </Stack>
  );
}
