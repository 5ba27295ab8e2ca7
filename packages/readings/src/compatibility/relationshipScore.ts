/**
 * Relationship score after Ciro Discepolo, as Kerykeion's RelationshipScoreFactory computes it:
 *
 * | condition                                                   | points               |
 * |-------------------------------------------------------------|----------------------|
 * | both Sun signs of the same quality (cardinal/fixed/mutable) | 5                    |
 * | Sun–Sun conjunction, opposition or square                   | 11 if orb ≤ 2°, else 8 |
 * | Sun–Sun trine or sextile                                    | 4                    |
 * | Sun–Moon conjunction (either way round)                     | 11 if orb ≤ 2°, else 8 |
 * | Sun–Moon, any other major aspect (either way round)         | 4                    |
 * | Sun–Ascendant, any major aspect (either way round)          | 4                    |
 * | Moon–Ascendant, any major aspect (either way round)         | 4                    |
 * | Venus–Mars, any major aspect (either way round)             | 4                    |
 *
 * Aspects are the major ones with the natal orbs (conjunction/opposition 10°, trine 8°,
 * sextile 6°, square 5°); orb is the exact distance from the aspect's angle.
 */
import {
  COMPATIBILITY_SCORE_MAX,
  RELATIONSHIP_BANDS,
  type RelationshipLabel,
  relationshipBandIndex,
} from '@astra/contracts';
import { type Aspect, synastryAspects } from '../astro/aspects.ts';
import type { ChartData } from '../astro/natalChart.ts';
import type { PointKey, Quality } from '../astro/zodiac.ts';

export type { RelationshipLabel };

/** The UI draws score / 44 in a ring that fills at most once. */
export const COMPATIBILITY_SCORE_SCALE = COMPATIBILITY_SCORE_MAX;

export type ScoringRule =
  | 'sun_sun_hard'
  | 'sun_sun_soft'
  | 'sun_moon_conjunction'
  | 'sun_moon_other'
  | 'sun_ascendant'
  | 'moon_ascendant'
  | 'venus_mars';

export interface ScoredAspect extends Aspect {
  rule: ScoringRule;
  points: number;
}

export interface RelationshipScore {
  score: number;
  label: RelationshipLabel;
  /** The +5 for Sun signs of the same quality, or null. */
  sameSunQuality: { quality: Quality; points: number } | null;
  /** Every aspect that scored, in the order of the synastry list (tightest first). */
  aspects: ScoredAspect[];
}

/** The score's band on Discepolo's scale (the bands are shared with the web app's drawing). */
export function relationshipLabel(score: number): RelationshipLabel {
  return RELATIONSHIP_BANDS[relationshipBandIndex(score)]!.label;
}

const SCORING_KEYS: readonly PointKey[] = ['sun', 'moon', 'venus', 'mars', 'ascendant'];

function pairIs(a: Aspect, x: PointKey, y: PointKey): boolean {
  return (a.p1 === x && a.p2 === y) || (a.p1 === y && a.p2 === x);
}

/** Points for one synastry aspect under the table above, or null if it does not score. */
export function scoreAspect(a: Aspect): { rule: ScoringRule; points: number } | null {
  const tight = a.orb <= 2;
  if (a.p1 === 'sun' && a.p2 === 'sun') {
    if (a.aspect === 'conjunction' || a.aspect === 'opposition' || a.aspect === 'square') {
      return { rule: 'sun_sun_hard', points: tight ? 11 : 8 };
    }
    return { rule: 'sun_sun_soft', points: 4 };
  }
  if (pairIs(a, 'sun', 'moon')) {
    if (a.aspect === 'conjunction') return { rule: 'sun_moon_conjunction', points: tight ? 11 : 8 };
    return { rule: 'sun_moon_other', points: 4 };
  }
  if (pairIs(a, 'sun', 'ascendant')) return { rule: 'sun_ascendant', points: 4 };
  if (pairIs(a, 'moon', 'ascendant')) return { rule: 'moon_ascendant', points: 4 };
  if (pairIs(a, 'venus', 'mars')) return { rule: 'venus_mars', points: 4 };
  return null;
}

/** Score two charts (person 1's points are always p1). */
export function relationshipScore(first: ChartData, second: ChartData): RelationshipScore {
  let score = 0;
  let sameSunQuality: RelationshipScore['sameSunQuality'] = null;
  if (first.sun.quality === second.sun.quality) {
    sameSunQuality = { quality: first.sun.quality, points: 5 };
    score += 5;
  }
  const aspects: ScoredAspect[] = [];
  for (const aspect of synastryAspects(first, second, SCORING_KEYS)) {
    const scored = scoreAspect(aspect);
    if (!scored) continue;
    aspects.push({ ...aspect, ...scored });
    score += scored.points;
  }
  return { score, label: relationshipLabel(score), sameSunQuality, aspects };
}
