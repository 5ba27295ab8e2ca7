import { type AdminStats, adminMessages } from '@astra/contracts';
import { Alert, Box, Button, HStack, SimpleGrid, Skeleton, Stat, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Surface } from '../../ui/Surface';
import { formatCount, formatDateTime, formatDay, formatMinor } from './adminFormat';
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

/** The share of users who are not blocked, as a bar (there is no 30-day series of it). */
function ActiveShare({ active, total }: { active: number; total: number }) {
  const percent = total === 0 ? 0 : Math.round((active / total) * 100);
  return (
    <Box
      role="img"
      aria-label={`${percent}% of all users are active (${formatCount(total - active)} blocked).`}
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

interface StatCardsProps {
  stats: AdminStats | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
}

/** Total Users, Active Users, Credits Used and Revenue, each with its last 30 days. */
export function StatCards({ stats, isLoading, isError, onRetry }: StatCardsProps) {
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
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4" aria-busy>
        {[0, 1, 2, 3].map((key) => (
          <Skeleton key={key} h="36" rounded="xl" />
        ))}
      </SimpleGrid>
    );
  }

  const money = (minor: number) => formatMinor(minor, stats.currency);
  const { signups, creditsUsed, revenueMinor } = stats.series;
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
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
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
          help={`${formatCount(stats.totalUsers - stats.activeUsers)} blocked`}
          chart={<ActiveShare active={stats.activeUsers} total={stats.totalUsers} />}
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
          value={money(stats.revenueThisMonthMinor)}
          help="this month"
          chart={
            <Sparkline
              values={revenueMinor.map((p) => p.value)}
              label={describeSeries('Revenue per day', revenueMinor, money)}
            />
          }
        />
      </SimpleGrid>
    </Box>
  );
}
