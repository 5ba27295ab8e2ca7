import { RELATIONSHIP_BANDS, relationshipBandIndex } from '@astra/contracts';
import { Box, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { COMPATIBILITY_SCORE_MAX } from './compatibilityReading';

const SIZE = 160;
const STROKE = 14;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;
/** The gap between two bands on the ring, in px along it. */
const GAP = 4;

/** Readings whose ring has already lit up in this visit: it lights up at most once. */
const filledBefore = new Set<string>();

const reduceMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** Each band as a part of the ring: where it starts and how long it is, in px along it. */
const SEGMENTS = RELATIONSHIP_BANDS.map((band, index) => {
  const to = RELATIONSHIP_BANDS[index + 1]?.from ?? COMPATIBILITY_SCORE_MAX;
  return {
    label: band.label,
    start: (band.from / COMPATIBILITY_SCORE_MAX) * CIRCUMFERENCE,
    length: ((to - band.from) / COMPATIBILITY_SCORE_MAX) * CIRCUMFERENCE - GAP,
  };
});

/**
 * score/44 on a ring of the scale's six bands (Minimal … Rare Exceptional): the bands up to the
 * score's are lit, so a low score still shows its place on the scale, never an empty ring.
 */
export function ScoreRing({ score, animationKey }: { score: number; animationKey: string }) {
  const [filled, setFilled] = useState(() => filledBefore.has(animationKey));

  useEffect(() => {
    if (filled) return;
    const frame = window.requestAnimationFrame(() => {
      filledBefore.add(animationKey);
      setFilled(true);
    });
    return () => window.cancelAnimationFrame(frame);
  }, [filled, animationKey]);

  const band = relationshipBandIndex(score);
  const label = `Compatibility score: ${score} out of ${COMPATIBILITY_SCORE_MAX}, band ${band + 1} of ${SEGMENTS.length} (${SEGMENTS[band]!.label})`;

  return (
    <Box position="relative" boxSize={`${SIZE}px`} flexShrink="0">
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label={label}>
        <title>{label}</title>
        <g transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}>
          {SEGMENTS.map((segment, index) => (
            <circle
              key={segment.label}
              data-band={segment.label}
              data-lit={filled && index <= band ? 'true' : 'false'}
              cx={SIZE / 2}
              cy={SIZE / 2}
              r={RADIUS}
              fill="none"
              stroke={
                filled && index <= band
                  ? 'var(--chakra-colors-brand-solid)'
                  : 'var(--chakra-colors-bg-emphasized)'
              }
              strokeWidth={STROKE}
              strokeDasharray={`${segment.length} ${CIRCUMFERENCE - segment.length}`}
              strokeDashoffset={-segment.start}
              style={{
                transition: reduceMotion() ? 'none' : `stroke 0.4s ease-out ${index * 0.15}s`,
              }}
            />
          ))}
        </g>
      </svg>
      <Box
        aria-hidden
        position="absolute"
        inset="0"
        display="flex"
        flexDirection="column"
        alignItems="center"
        justifyContent="center"
      >
        <Text fontFamily="heading" fontWeight="bold" fontSize="3xl" lineHeight="1">
          {score}
          <Text as="span" fontSize="lg" color="fg.muted">
            /{COMPATIBILITY_SCORE_MAX}
          </Text>
        </Text>
      </Box>
    </Box>
  );
}
