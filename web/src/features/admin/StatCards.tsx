import { type AdminMonthMoney, type AdminStats, adminMessages } from '@astra/contracts';
import { Alert, Box, Button, HStack, SimpleGrid, Skeleton, Stat, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Surface } from '../../ui/Surface';
import { useGetAdminStatsMoneyQuery } from './adminApi';
import { formatCount, formatDateTime, formatDay, formatMinor } from './adminFormat';
import { formatMonth } from './auditFormat';
import { Sparkline } from './Sparkline';

type Point = AdminStats['series']['signups'][number];

/** "Sign-ups per day, Mar 1 to Mar 30: 42 in all, most 7 on Mar 12, 3 on the last day." */
export function describeSeries(
  what: string,
  points: Point[],
  format: (value: number) => string,
): string {
  if (points.length === 0) return `${what}: no data for the last 30 days.`;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const peak = points.reduce((best, point) => (point.value > best.value ? point : best), first);
  const total = points.reduce((sum, point) => sum + point.value, 0);
  return (
    `${what}, ${formatDay(first.day)} to ${formatDay(last.day)}: ${format(total)} in all, ` +
    `highest ${format(peak.value)} on ${formatDay(peak.day)}, ${format(last.value)} on the last day.`
  );
}

function StatCard({
  label,
  value,
  help,
  chart,
}: {
  label: string;
  value: string;
  help: string;
  chart: ReactNode;
}) {
  return (
    <Surface gap="2" p={{ base: '4', md: '5' }}>
      <Stat.Root>
        <Stat.Label>{label}</Stat.Label>
        <Stat.ValueText fontVariantNumeric="tabular-nums" data-testid="stat-value">
          {value}
        </Stat.ValueText>
      </Stat.Root>
      <Text fontSize="sm" color="fg.muted">
        {help}
      </Text>
      {chart}
    </Surface>
  );
}

/** "2 blocked · 1 deleted" (deleted users are not blocked). */
const inactiveText = (stats: AdminStats) =>
  `${formatCount(stats.blockedUsers)} blocked · ${formatCount(stats.deletedUsers)} deleted`;

/** The share of users who are active, as a bar (there is no 30-day series of it). */
function ActiveShare({ stats }: { stats: AdminStats }) {
  const { activeUsers: active, totalUsers: total } = stats;
  const percent = total === 0 ? 0 : Math.round((active / total) * 100);
  return (
    <Box
      role="img"
      aria-label={`${percent}% of all users are active (${inactiveText(stats)}).`}
      h="10"
      display="flex"
      alignItems="center"
    >
      <Box w="full" h="2" rounded="full" bg="bg.muted" overflow="hidden">
        <Box h="full" w={`${percent}%`} bg="brand.solid" rounded="full" />
      </Box>
    </Box>
  );
}

/** This month's money, a line per currency: recognized, and cash in less refunds. */
function MoneyLines({ lines }: { lines: AdminMonthMoney[] }) {
  if (lines.length === 0) {
    return (
      <Text fontSize="xs" color="fg.muted">
        No payments yet.
      </Text>
    );
  }
  return (
    <Box as="dl" fontSize="xs" color="fg.muted" data-testid="month-money">
      {lines.map((line) => (
        <HStack key={line.currency} justify="space-between" gap="2">
          <Text as="dt" fontWeight="medium">
            {line.currency.toUpperCase()}
          </Text>
          <Text as="dd" fontVariantNumeric="tabular-nums" textAlign="end">
            {formatMinor(line.recognizedMinor, line.currency)} recognized ·{' '}
            {formatMinor(line.cashInMinor, line.currency)} in −{' '}
            {formatMinor(line.refundsMinor, line.currency)} refunded
          </Text>
        </HStack>
      ))}
    </Box>
  );
}

interface StatCardsProps {
  stats: AdminStats | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
}

/**
 * Total Users, Active Users (with the blocked and the deleted apart), Credits Used, Revenue (this
 * month's recognized revenue in every currency) and Cash collected (this month's payments less
 * refunds in every currency; its chart: the last 30 days in the pricing currency).
 */
export function StatCards({ stats, isLoading, isError, onRetry }: StatCardsProps) {
  // The month's money comes apart: the first answer after the API started folds the whole log.
  const { data: monthMoney, ...monthMoneyState } = useGetAdminStatsMoneyQuery(undefined, {
    refetchOnMountOrArgChange: 30,
  });
  if (isError && !stats) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{adminMessages.loadFailed}</Alert.Title>
        <Button size="sm" variant="outline" onClick={onRetry}>
          Try again
        </Button>
      </Alert.Root>
    );
  }
  if (isLoading || !stats) {
    return (
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 5 }} gap="4" aria-busy>
        {[0, 1, 2, 3, 4].map((key) => (
          <Skeleton key={key} h="36" rounded="xl" />
        ))}
      </SimpleGrid>
    );
  }

  const money = (minor: number) => formatMinor(minor, stats.currency);
  const { signups, creditsUsed, revenueMinor } = stats.series;
  const lines = monthMoney?.money;
  /** One amount per currency, each with its currency ('$43.95 · €12.00'); none yet: 0 in the pricing currency. */
  const perCurrency = (minor: (line: AdminMonthMoney) => number) =>
    !lines
      ? monthMoneyState.isError
        ? 'Not available'
        : 'Counting…'
      : lines.length === 0
        ? money(0)
        : lines.map((line) => formatMinor(minor(line), line.currency)).join(' · ');
  const monthName = formatMonth(monthMoney?.month ?? new Date().toISOString().slice(0, 7));
  const zone = monthMoney?.timeZone ?? 'UTC';
  const newUsers = signups.reduce((sum, point) => sum + point.value, 0);
  const used30 = creditsUsed.reduce((sum, point) => sum + point.value, 0);

  return (
    <Box as="section" aria-labelledby="admin-stats-heading">
      <HStack justify="space-between" wrap="wrap" mb="3" gap="2">
        <Text as="h2" id="admin-stats-heading" fontWeight="semibold" fontSize="lg">
          Overview
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {stats.asOf ? (
            <>
              as of <time dateTime={stats.asOf}>{formatDateTime(stats.asOf)}</time>
            </>
          ) : (
            'as of now (no activity yet)'
          )}
        </Text>
      </HStack>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 5 }} gap="4">
        <StatCard
          label="Total Users"
          value={formatCount(stats.totalUsers)}
          help={`+${formatCount(newUsers)} in 30 days`}
          chart={
            <Sparkline
              values={signups.map((p) => p.value)}
              label={describeSeries('New sign-ups per day', signups, formatCount)}
            />
          }
        />
        <StatCard
          label="Active Users"
          value={formatCount(stats.activeUsers)}
          help={inactiveText(stats)}
          chart={<ActiveShare stats={stats} />}
        />
        <StatCard
          label="Credits Used"
          value={formatCount(stats.totalCreditsUsed)}
          help={`${formatCount(used30)} in 30 days`}
          chart={
            <Sparkline
              values={creditsUsed.map((p) => p.value)}
              label={describeSeries('Credits used per day', creditsUsed, formatCount)}
            />
          }
        />
        <StatCard
          label="Revenue"
          value={perCurrency((line) => line.recognizedMinor)}
          help={`recognized in ${monthName} (${zone}), as the month report`}
          chart={lines ? <MoneyLines lines={lines} /> : <Skeleton h="10" aria-hidden />}
        />
        <StatCard
          label="Cash collected"
          value={perCurrency((line) => line.cashNetMinor)}
          help={`payments less refunds in ${monthName} (${zone})`}
          chart={
            <Sparkline
              values={revenueMinor.map((p) => p.value)}
              label={describeSeries(
                `Cash collected per day in ${stats.currency.toUpperCase()}`,
                revenueMinor,
                money,
              )}
            />
          }
        />
      </SimpleGrid>
    </Box>
  );
}
