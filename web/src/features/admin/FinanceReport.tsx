import {
  type CreditRollForward,
  type MoneyRollForward,
  type MonthlyReport,
  type PayoutReport,
  revenueLineLabel,
} from '@astra/contracts';
import { Alert, Box, Heading, HStack, List, Stack, Table, Text } from '@chakra-ui/react';
import { TableFrame } from './AuditStates';
import { formatCount, formatMinor } from './adminFormat';
import { formatInstant, formatMonth, formatSignedCredits } from './auditFormat';

type Movement = Exclude<
  keyof CreditRollForward,
  'opening' | 'closing' | 'balancesAtClose' | 'difference'
>;

/** The month's movements in roll-forward order; `out` lines are magnitudes the roll subtracts. */
const MOVEMENTS: { key: Movement; label: string; out?: boolean; signed?: boolean }[] = [
  { key: 'purchased', label: 'Purchased' },
  { key: 'subscriptionGrants', label: 'Subscription grants' },
  { key: 'free', label: 'Free and promotional' },
  { key: 'adminAdjustments', label: 'Admin adjustments', signed: true },
  { key: 'spentReadings', label: 'Spent on readings', out: true },
  { key: 'spentVoice', label: 'Spent on voice', out: true },
  { key: 'spendsRefunded', label: 'Spends given back' },
  { key: 'forfeitedRollover', label: 'Forfeited at rollover', out: true },
  { key: 'forfeitedDeletion', label: 'Forfeited on deletion', out: true },
  { key: 'reversed', label: 'Reversed (refunded purchases)', out: true },
];

/** A movement's effect on the balance: outgoing lines subtract, adjustments carry their sign. */
const effectOf = (credits: CreditRollForward, line: (typeof MOVEMENTS)[number]) =>
  line.out ? -credits[line.key] : credits[line.key];

const numeric = { textAlign: 'end', fontVariantNumeric: 'tabular-nums' } as const;

/** Opening + each movement = closing; then the balances replayed at the month's end and the gap. */
export function CreditRollForwardTable({ report }: { report: MonthlyReport }) {
  const { credits } = report;
  const computed = MOVEMENTS.reduce((sum, line) => sum + effectOf(credits, line), credits.opening);
  return (
    <TableFrame label="Credit roll-forward table">
      <Table.Root size="sm">
        <Table.Caption srOnly>
          Credits, {formatMonth(report.month)} ({report.timeZone})
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Line</Table.ColumnHeader>
            <Table.ColumnHeader {...numeric}>Credits</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          <Table.Row fontWeight="semibold" data-line="opening">
            <Table.Cell>Opening credits outstanding</Table.Cell>
            <Table.Cell {...numeric}>{formatCount(credits.opening)}</Table.Cell>
          </Table.Row>
          {MOVEMENTS.map((line) => {
            const effect = effectOf(credits, line);
            return (
              <Table.Row key={line.key} data-line={line.key}>
                <Table.Cell ps="6">
                  {line.signed ? '±' : line.out ? '−' : '+'} {line.label}
                </Table.Cell>
                <Table.Cell
                  {...numeric}
                  color={effect < 0 ? 'fg.error' : effect > 0 ? 'fg.success' : 'fg.muted'}
                >
                  {formatSignedCredits(effect)}
                </Table.Cell>
              </Table.Row>
            );
          })}
          <Table.Row fontWeight="semibold" data-line="closing">
            <Table.Cell>= Closing credits outstanding</Table.Cell>
            <Table.Cell {...numeric} data-testid="credits-closing">
              {formatCount(credits.closing)}
            </Table.Cell>
          </Table.Row>
          <Table.Row data-line="balancesAtClose">
            <Table.Cell>Every account's balance at the month's end (replayed)</Table.Cell>
            <Table.Cell {...numeric}>{formatCount(credits.balancesAtClose)}</Table.Cell>
          </Table.Row>
          <Table.Row data-line="difference" fontWeight="semibold">
            <Table.Cell>Difference (balances − closing)</Table.Cell>
            <Table.Cell
              {...numeric}
              color={credits.difference === 0 ? 'fg.success' : 'fg.error'}
              data-testid="credits-difference"
            >
              {formatSignedCredits(credits.difference)}
            </Table.Cell>
          </Table.Row>
          {computed !== credits.closing && (
            <Table.Row>
              <Table.Cell colSpan={2} color="fg.warning" whiteSpace="normal">
                The lines add up to {formatCount(computed)}, not the closing figure.
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

/** The head of a money table: the line, then a column per currency of the report. */
function CurrencyHeader({ report }: { report: MonthlyReport }) {
  return (
    <Table.Header>
      <Table.Row>
        <Table.ColumnHeader>Line</Table.ColumnHeader>
        {report.money.map((money) => (
          <Table.ColumnHeader key={money.currency} {...numeric}>
            {money.currency.toUpperCase()}
          </Table.ColumnHeader>
        ))}
      </Table.Row>
    </Table.Header>
  );
}

type MoneyFigure = Exclude<
  keyof MoneyRollForward,
  'currency' | 'revenue' | 'deferredByPurchaseMonth' | 'taxByCountry'
>;

const MONEY_ROWS: { key: MoneyFigure; label: string }[] = [
  { key: 'deferredOpening', label: 'Deferred revenue, opening' },
  { key: 'cashIn', label: '+ Cash in (payments)' },
  { key: 'refunds', label: '− Refunds' },
  { key: 'recognized', label: '− Recognized from use (paid credits spent, forfeited, reversed)' },
  { key: 'adminDeductions', label: '− Admin deductions (paid credits admins took away)' },
  { key: 'taxIn', label: '− Tax collected (in payments)' },
  { key: 'taxOut', label: '+ Tax given back (in refunds)' },
  { key: 'deferredClosing', label: '= Deferred revenue, closing' },
  { key: 'cashToDate', label: 'Cash to date (payments − refunds)' },
  { key: 'recognizedToDate', label: 'Recognized to date' },
  { key: 'adminDeductionsToDate', label: 'Admin deductions to date' },
  { key: 'taxPayableOpening', label: 'Tax payable, opening' },
  { key: 'taxPayableClosing', label: 'Tax payable, closing (owed to the authorities)' },
  { key: 'fees', label: "Stripe's fees in the month (an expense)" },
  { key: 'paidOut', label: 'Paid out to the bank in the month' },
  { key: 'feesToDate', label: "Stripe's fees to date" },
  { key: 'paidOutToDate', label: 'Paid out to date' },
  { key: 'disputes', label: 'Disputes in the month (withdrawn − returned: an expense)' },
  { key: 'disputesToDate', label: 'Disputes to date' },
];

/**
 * The money of the month per currency, and the check Stripe's balance (cash − fees − paid out −
 * disputes) = recognized + admin deductions + deferred + tax payable − fees − paid out − disputes.
 */
export function MoneyRollForwardTable({ report }: { report: MonthlyReport }) {
  if (report.money.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        No money on the log through this month: no payment or refund has been recorded yet.
      </Text>
    );
  }
  return (
    <TableFrame label="Money roll-forward table">
      <Table.Root size="sm">
        <Table.Caption srOnly>
          Money by currency, {formatMonth(report.month)} ({report.timeZone})
        </Table.Caption>
        <CurrencyHeader report={report} />
        <Table.Body>
          {MONEY_ROWS.map((row) => (
            <Table.Row
              key={row.key}
              data-line={row.key}
              fontWeight={row.key.startsWith('deferred') ? 'semibold' : undefined}
            >
              <Table.Cell whiteSpace="normal">{row.label}</Table.Cell>
              {report.money.map((money) => (
                <Table.Cell key={money.currency} {...numeric}>
                  {formatMinor(money[row.key] ?? 0, money.currency)}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
          <Table.Row data-line="invariant">
            <Table.Cell whiteSpace="normal">
              Stripe's balance (cash − fees − paid out − disputes, to date) = recognized + admin
              deductions + deferred + tax payable − fees − paid out − disputes
            </Table.Cell>
            {report.money.map((money) => {
              // Fees, payouts and disputes leave both sides alike: the cash is what the rest must meet.
              const gap =
                money.cashToDate -
                money.recognizedToDate -
                money.adminDeductionsToDate -
                money.deferredClosing -
                money.taxPayableClosing;
              return (
                <Table.Cell
                  key={money.currency}
                  {...numeric}
                  color={gap === 0 ? 'fg.success' : 'fg.error'}
                  fontWeight="semibold"
                >
                  {gap === 0 ? 'holds' : `off by ${formatMinor(gap, money.currency)}`}
                </Table.Cell>
              );
            })}
          </Table.Row>
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

/** Rows × currencies of minor units: a cell is 0 where a currency has no such row. */
function MoneyGrid({
  report,
  label,
  caption,
  rows,
}: {
  report: MonthlyReport;
  label: string;
  caption: string;
  rows: { key: string; label: string; value: (money: MoneyRollForward) => number }[];
}) {
  return (
    <TableFrame label={label}>
      <Table.Root size="sm">
        <Table.Caption srOnly>{caption}</Table.Caption>
        <CurrencyHeader report={report} />
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.key} data-line={row.key}>
              <Table.Cell whiteSpace="normal">{row.label}</Table.Cell>
              {report.money.map((money) => (
                <Table.Cell key={money.currency} {...numeric}>
                  {formatMinor(row.value(money), money.currency)}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

/** The month's recognized revenue by line of the books: each reading kind, voice, breakage, refunds. */
export function RevenueTable({ report }: { report: MonthlyReport }) {
  const lines = [...new Set(report.money.flatMap((money) => money.revenue.map((r) => r.line)))];
  if (lines.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        No revenue was recognized this month.
      </Text>
    );
  }
  return (
    <MoneyGrid
      report={report}
      label="Revenue by line table"
      caption={`Recognized revenue by line, ${formatMonth(report.month)}`}
      rows={lines.map((line) => ({
        key: line,
        label: revenueLineLabel(line),
        value: (money) => money.revenue.find((r) => r.line === line)?.minor ?? 0,
      }))}
    />
  );
}

/** A tax line's label, `DE, 19%`; Stripe may name no country or rate. */
const taxLabel = ({ country, ratePercent }: MoneyRollForward['taxByCountry'][number]) =>
  `${country ?? 'Unknown country'}, ${ratePercent === null ? 'unknown rate' : `${ratePercent}%`}`;

/** The month's tax (collected less given back) by the customer's country and the rate: for the VAT/OSS return. */
export function TaxByCountryTable({ report }: { report: MonthlyReport }) {
  const taxes = new Map(
    report.money.flatMap((money) => money.taxByCountry.map((tax) => [taxLabel(tax), tax] as const)),
  );
  if (taxes.size === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        No tax was collected or given back this month.
      </Text>
    );
  }
  return (
    <MoneyGrid
      report={report}
      label="Tax by country and rate table"
      caption={`Tax by country and rate, ${formatMonth(report.month)}`}
      rows={[...taxes.keys()].map((label) => ({
        key: label,
        label,
        value: (money) => money.taxByCountry.find((tax) => taxLabel(tax) === label)?.minor ?? 0,
      }))}
    />
  );
}

/**
 * Deferred revenue by the month its credits were paid for, at the month's start and end: the
 * report's row of a deferred-revenue waterfall (how old the readings still owed are).
 */
export function DeferredAgingTable({ report }: { report: MonthlyReport }) {
  const months = [
    ...new Set(
      report.money.flatMap((money) => money.deferredByPurchaseMonth.map((d) => d.purchased)),
    ),
  ].sort();
  if (months.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        No paid credits were held this month.
      </Text>
    );
  }
  const aged = (money: MoneyRollForward, month: string) =>
    money.deferredByPurchaseMonth.find((d) => d.purchased === month);
  return (
    <MoneyGrid
      report={report}
      label="Deferred revenue by purchase month table"
      caption={`Deferred revenue by purchase month, ${formatMonth(report.month)}`}
      rows={months.flatMap((month) => {
        const name =
          month === 'unknown' ? 'Paid at an unknown time' : `Paid in ${formatMonth(month)}`;
        return [
          {
            key: `${month}:opening`,
            label: `${name}: at the start`,
            value: (money) => aged(money, month)?.opening ?? 0,
          },
          {
            key: `${month}:closing`,
            label: `${name}: at the end`,
            value: (money) => aged(money, month)?.closing ?? 0,
          },
        ];
      })}
    />
  );
}

/**
 * The month's credit movements as bars (credits in to the right in green, out in red), a list
 * that reads as well as it looks: each bar is named by its line and amount.
 */
export function MovementsChart({ report }: { report: MonthlyReport }) {
  const lines = MOVEMENTS.map((line) => ({
    ...line,
    effect: effectOf(report.credits, line),
  }));
  const largest = Math.max(1, ...lines.map((line) => Math.abs(line.effect)));
  const moved = lines.some((line) => line.effect !== 0);
  return (
    <Stack gap="2">
      <Heading as="h3" size="md" id="movements-chart-heading">
        Movements of {formatMonth(report.month)}
      </Heading>
      {!moved && (
        <Text fontSize="sm" color="fg.muted">
          No credit moved this month.
        </Text>
      )}
      <List.Root as="ul" listStyle="none" gap="1.5" aria-labelledby="movements-chart-heading">
        {lines.map((line) => {
          const width = `${(Math.abs(line.effect) / largest) * 100}%`;
          return (
            <List.Item
              key={line.key}
              display="grid"
              gridTemplateColumns={{ base: '8rem 1fr 4rem', md: '12rem 1fr 5rem' }}
              alignItems="center"
              gap="2"
              fontSize="xs"
            >
              <Text truncate title={line.label}>
                {line.label}
              </Text>
              <Box h="3" bg="bg.muted" rounded="sm" overflow="hidden" aria-hidden>
                {line.effect !== 0 && (
                  <Box
                    h="full"
                    w={width}
                    minW="1"
                    bg={line.effect < 0 ? 'red.solid' : 'green.solid'}
                    rounded="sm"
                  />
                )}
              </Box>
              <Text textAlign="end" fontVariantNumeric="tabular-nums">
                {formatSignedCredits(line.effect)}
              </Text>
            </List.Item>
          );
        })}
      </List.Root>
    </Stack>
  );
}

/**
 * What the month is: a month of the finance time zone, from its first instant up to the next
 * month's (each shown on that zone's clock and as the UTC instant the report and its CSV state).
 */
export function ReportPeriod({ report }: { report: MonthlyReport }) {
  const instant = (iso: string) => (
    <time dateTime={iso}>
      {formatInstant(iso, report.timeZone)} ({iso})
    </time>
  );
  return (
    <Text fontSize="sm" color="fg.muted" data-testid="report-period">
      {formatMonth(report.month)} in {report.timeZone}: from {instant(report.from)} up to{' '}
      {instant(report.to)}, not included.
    </Text>
  );
}

/** Problems a reader must see, above everything else; or a line saying there are none. */
export function ReportFlags({ report }: { report: MonthlyReport }) {
  if (report.flags.length === 0) {
    return (
      <HStack gap="2" fontSize="sm" color="fg.success" role="status">
        <Text>
          No flags: the roll-forward meets the balances replayed at the month's end, and cash =
          recognized + admin deductions + deferred + tax payable in every currency.
        </Text>
      </HStack>
    );
  }
  return (
    <Alert.Root status="warning" variant="surface" alignItems="flex-start" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title fontWeight="bold">
          {report.flags.length === 1
            ? 'This report has a flag'
            : `This report has ${report.flags.length} flags`}
        </Alert.Title>
        <Alert.Description>
          <List.Root gap="1" ps="4">
            {report.flags.map((flag) => (
              <List.Item key={flag}>{flag}</List.Item>
            ))}
          </List.Root>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

const PAYOUT_COLUMNS = [
  { key: 'charges', label: 'Charges' },
  { key: 'refunds', label: '− Refunds' },
  { key: 'fees', label: '− Fees' },
  { key: 'disputes', label: '± Disputes' },
  { key: 'other', label: '± Other' },
  { key: 'expected', label: '= Expected' },
  { key: 'amount', label: 'Paid out' },
  { key: 'difference', label: 'Difference' },
] as const;

/**
 * The month's payouts tied to the bank: charges − refunds − fees ± disputes = the amount that
 * reached the bank, each from the balance transactions Stripe listed with it.
 */
export function PayoutTable({ report }: { report: PayoutReport }) {
  if (report.payouts.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        No payout arrives at the bank in {formatMonth(report.month)}.
      </Text>
    );
  }
  return (
    <TableFrame label="Payouts table">
      <Table.Root size="sm">
        <Table.Caption srOnly>Payouts arriving in {formatMonth(report.month)}</Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Payout</Table.ColumnHeader>
            <Table.ColumnHeader>Arrives</Table.ColumnHeader>
            {PAYOUT_COLUMNS.map((column) => (
              <Table.ColumnHeader key={column.key} {...numeric}>
                {column.label}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {report.payouts.map((payout) => (
            <Table.Row key={payout.payoutId} data-payout={payout.payoutId}>
              <Table.Cell>
                {payout.payoutId}
                {payout.status === 'failed' && (
                  <Text as="span" color="fg.error">
                    {' '}
                    (failed)
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell>{payout.arrivalDate.slice(0, 10)}</Table.Cell>
              {PAYOUT_COLUMNS.map((column) => (
                <Table.Cell
                  key={column.key}
                  {...numeric}
                  color={
                    column.key === 'difference'
                      ? payout.difference === 0
                        ? 'fg.success'
                        : 'fg.error'
                      : undefined
                  }
                >
                  {formatMinor(payout[column.key], payout.currency)}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}
