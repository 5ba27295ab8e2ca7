import { Box, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { COMPATIBILITY_SCORE_MAX } from './compatibilityReading';

const SIZE = 160;
const STROKE = 14;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** Readings whose ring has already filled in this visit: it fills at most once. */
const filledBefore = new Set<string>();

const reduceMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** The part of the ring the score covers, 0–1. */
export const scoreFraction = (score: number) =>
  Math.min(1, Math.max(0, score / COMPATIBILITY_SCORE_MAX));

/** score/44 in a ring that fills once, from empty to the score. */
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

  const offset = CIRCUMFERENCE * (1 - (filled ? scoreFraction(score) : 0));
  const label = `Compatibility score: ${score} out of ${COMPATIBILITY_SCORE_MAX}`;

  return (
    <Box position="relative" boxSize={`${SIZE}px`} flexShrink="0">
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label={label}>
        <title>{label}</title>
        <circle
          cx={SIZE / 2}
          cy={SIZE / 2}
          r={RADIUS}
          fill="none"
          stroke="var(--chakra-colors-bg-muted)"
          strokeWidth={STROKE}
        />
        <circle
          cx={SIZE / 2}
          cy={SIZE / 2}
          r={RADIUS}
          fill="none"
          stroke="var(--chakra-colors-brand-solid)"
          strokeWidth={STROKE}
          strokeLinecap="round"
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={offset}
          transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}
          style={{ transition: reduceMotion() ? 'none' : 'stroke-dashoffset 1.2s ease-out' }}
        />
      </svg>
      <Box
        aria-hidden
        position="absolute"
        inset="0"
        display="flex"
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
