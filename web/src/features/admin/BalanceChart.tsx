import { Box, HStack, Stack, Text } from '@chakra-ui/react';
import { formatCount } from './adminFormat';
import { formatInstant } from './auditFormat';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = 6;

export interface BalancePoint {
  at: string;
  balance: number;
}

interface BalanceChartProps {
  points: BalancePoint[];
  /** An instant to mark with a vertical line (the "balance as of" instant). */
  marker?: string;
}

/** "Balance over time, Mar 1 to Mar 30: 12 events, highest 140, lowest 0, now 95." */
export function describeBalance(points: BalancePoint[]): string {
  if (points.length === 0) return 'Balance over time: no events yet.';
  const values = points.map((point) => point.balance);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return (
    `Balance over time, ${formatInstant(first.at)} to ${formatInstant(last.at)}: ` +
    `${formatCount(points.length)} ${points.length === 1 ? 'event' : 'events'}, ` +
    `highest ${formatCount(Math.max(...values))}, lowest ${formatCount(Math.min(...values))}, ` +
    `${formatCount(last.balance)} after the last.`
  );
}

/**
 * The running balance (each event's balance after) as a step line over time: a balance holds
 * until the next event changes it. A hand-made SVG like the stat cards' sparklines, one image to
 * assistive technology, described in words.
 */
export function BalanceChart({ points, marker }: BalanceChartProps) {
  const times = points.map((point) => Date.parse(point.at));
  const start = times[0] ?? 0;
  const end = times[times.length - 1] ?? 1;
  const span = end - start;
  const values = points.map((point) => point.balance);
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  // Events at one instant (or a single event) are spread by their order instead of their time.
  const x = (index: number) =>
    span > 0
      ? PAD + ((times[index]! - start) / span) * (WIDTH - 2 * PAD)
      : points.length === 1
        ? WIDTH / 2
        : PAD + (index / (points.length - 1)) * (WIDTH - 2 * PAD);
  const y = (value: number) => PAD + (1 - (value - low) / (high - low)) * (HEIGHT - 2 * PAD);

  let line = '';
  points.forEach((point, index) => {
    if (index === 0) line = `M ${x(0)} ${y(point.balance)}`;
    else line += ` H ${x(index)} V ${y(point.balance)}`;
  });
  if (points.length === 1) line = `M ${PAD} ${y(values[0]!)} H ${WIDTH - PAD}`;
  const lastX = points.length === 1 ? WIDTH - PAD : x(points.length - 1);
  const firstX = points.length === 1 ? PAD : x(0);
  const area = points.length > 0 ? `${line} V ${y(low)} H ${firstX} Z` : '';
  const markerTime = marker ? Date.parse(marker) : Number.NaN;
  const markerX =
    span > 0 && markerTime >= start && markerTime <= end
      ? PAD + ((markerTime - start) / span) * (WIDTH - 2 * PAD)
      : null;

  return (
    <Stack gap="1">
      <HStack justify="space-between" fontSize="xs" color="fg.muted" aria-hidden>
        <Text>{formatCount(high)} credits</Text>
        {markerX !== null && <Text color="starlight.fg">│ balance as of</Text>}
      </HStack>
      <Box
        position="relative"
        color="brand.fg"
        w="full"
        borderBottomWidth="1px"
        borderLeftWidth="1px"
        borderColor="border"
      >
        <svg
          role="img"
          aria-label={describeBalance(points)}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width="100%"
          height={HEIGHT}
          preserveAspectRatio="none"
          style={{ display: 'block' }}
        >
          {points.length > 0 && (
            <>
              <path d={area} fill="currentColor" fillOpacity="0.12" />
              <path
                d={line}
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
              />
              <line
                x1={lastX}
                x2={lastX}
                y1={y(values[values.length - 1]!)}
                y2={y(values[values.length - 1]!)}
                stroke="currentColor"
                strokeWidth="6"
                strokeLinecap="round"
                vectorEffect="non-scaling-stroke"
              />
            </>
          )}
        </svg>
        {markerX !== null && (
          <Box
            position="absolute"
            top="0"
            bottom="0"
            left={`${(markerX / WIDTH) * 100}%`}
            borderLeftWidth="2px"
            borderLeftStyle="dashed"
            borderColor="starlight.border"
            aria-hidden
          />
        )}
      </Box>
      <HStack justify="space-between" fontSize="xs" color="fg.muted" aria-hidden gap="3">
        <Text>{points[0] ? formatInstant(points[0].at) : ''}</Text>
        <Text textAlign="end">
          {points.length > 1 ? formatInstant(points[points.length - 1]!.at) : ''}
        </Text>
      </HStack>
    </Stack>
  );
}
