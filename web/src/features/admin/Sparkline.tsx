import { Box } from '@chakra-ui/react';

const WIDTH = 120;
const HEIGHT = 32;
const PAD = 2;

interface SparklineProps {
  values: number[];
  /** What the drawing shows, in words: the whole chart's accessible name. */
  label: string;
}

/**
 * A small hand-made SVG line with a soft area under it: a trend at a glance, no chart library.
 * The drawing is one image to assistive technology, named by `label`.
 */
export function Sparkline({ values, label }: SparklineProps) {
  const points = values.length > 0 ? values : [0];
  const low = Math.min(0, ...points);
  const high = Math.max(1, ...points);
  const x = (index: number) =>
    points.length === 1 ? WIDTH / 2 : PAD + (index / (points.length - 1)) * (WIDTH - 2 * PAD);
  const y = (value: number) => PAD + (1 - (value - low) / (high - low)) * (HEIGHT - 2 * PAD);
  const line = points.map((v, i) => `${i === 0 ? 'M' : 'L'} ${x(i)} ${y(v)}`).join(' ');
  const area = `${line} L ${x(points.length - 1)} ${y(low)} L ${x(0)} ${y(low)} Z`;

  return (
    <Box color="brand.fg" w="full">
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        height="40"
        preserveAspectRatio="none"
        style={{ display: 'block', overflow: 'visible' }}
      >
        <path d={area} fill="currentColor" fillOpacity="0.14" />
        <path
          d={line}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
    </Box>
  );
}
