import type { LedgerEntryView } from '@astra/contracts';
import { Box, Flex, HStack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTimeZone } from '../../app/timeZone';

const WIDTH = 600;
const HEIGHT = 200;
const PAD = 8;

const shortDate = (iso: string, timeZone?: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone,
  });

export interface BalancePoint {
  id: string;
  balance: number;
  iso: string;
}

/** Ledger entries come newest first; the chart reads left to right, oldest first. */
export function balancePoints(entries: LedgerEntryView[]): BalancePoint[] {
  return [...entries]
    .sort(
      (a, b) =>
        Date.parse(a.occurredAt) - Date.parse(b.occurredAt) ||
        // Same-millisecond events keep their ledger order.
        a.revision - b.revision,
    )
    .map((entry) => ({ id: entry.eventId, balance: entry.balanceAfter, iso: entry.occurredAt }));
}

export function describeBalance(points: BalancePoint[], timeZone?: string): string {
  if (points.length === 0) return 'Balance chart: no credit changes yet.';
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const balances = points.map((p) => p.balance);
  return (
    `Balance after each of ${points.length} ${points.length === 1 ? 'change' : 'changes'}: ` +
    `from ${first.balance} credits on ${shortDate(first.iso, timeZone)} to ${last.balance} credits on ` +
    `${shortDate(last.iso, timeZone)}; lowest ${Math.min(...balances)}, highest ${Math.max(...balances)}.`
  );
}

/**
 * Hand-made SVG step chart: one step per ledger entry (even spacing, so bursts of changes on one
 * day stay readable), and the balance holds flat between entries. Labels are HTML beside the
 * SVG so they stay legible however far the drawing is scaled down on a phone.
 */
export function BalanceChart({ entries }: { entries: LedgerEntryView[] }) {
  const points = useMemo(() => balancePoints(entries), [entries]);
  const timeZone = useTimeZone();
  const label = describeBalance(points, timeZone);

  if (points.length === 0) return <Text color="fg.muted">{label}</Text>;

  const balances = points.map((p) => p.balance);
  const low = Math.min(0, ...balances);
  const high = Math.max(1, ...balances);
  const x = (index: number) =>
    points.length === 1 ? WIDTH / 2 : PAD + (index / (points.length - 1)) * (WIDTH - 2 * PAD);
  const y = (balance: number) => PAD + (1 - (balance - low) / (high - low)) * (HEIGHT - 2 * PAD);

  const line = points
    .map((point, index) =>
      index === 0 ? `M ${x(0)} ${y(point.balance)}` : `H ${x(index)} V ${y(point.balance)}`,
    )
    .join(' ');
  const area = `${line} V ${y(low)} H ${x(0)} Z`;
  const first = shortDate(points[0]!.iso, timeZone);
  const last = shortDate(points[points.length - 1]!.iso, timeZone);

  return (
    <Flex gap="2" w="full">
      <Flex
        direction="column"
        justify="space-between"
        fontSize="xs"
        color="fg.muted"
        textAlign="end"
        pb="6"
        aria-hidden
      >
        <span>{high}</span>
        <span>{low}</span>
      </Flex>
      <Box flex="1" minW="0">
        <Box
          color="brand.fg"
          borderBottomWidth="1px"
          borderLeftWidth="1px"
          borderColor="border.emphasized"
        >
          <svg
            role="img"
            aria-label={label}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            width="100%"
            height="180"
            preserveAspectRatio="none"
            style={{ display: 'block' }}
          >
            <title>{label}</title>
            <path d={area} fill="currentColor" fillOpacity="0.14" />
            <path
              d={line}
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
          </svg>
        </Box>
        <HStack justify="space-between" fontSize="xs" color="fg.muted" pt="1" aria-hidden>
          <span>{first}</span>
          {first !== last && <span>{last}</span>}
        </HStack>
      </Box>
    </Flex>
  );
}
