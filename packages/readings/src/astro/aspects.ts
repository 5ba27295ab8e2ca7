/** Major (Ptolemaic) aspects with the orbs of Kerykeion's defaults. */
import { POINT_KEYS, POINT_NAMES, type PointKey } from './zodiac.ts';

export type AspectName = 'conjunction' | 'opposition' | 'trine' | 'sextile' | 'square';

export interface AspectDefinition {
  readonly name: AspectName;
  readonly degrees: number;
  readonly orb: number;
  readonly symbol: string;
}

export const MAJOR_ASPECTS: readonly AspectDefinition[] = [
  { name: 'conjunction', degrees: 0, orb: 10, symbol: '☌' },
  { name: 'opposition', degrees: 180, orb: 10, symbol: '☍' },
  { name: 'trine', degrees: 120, orb: 8, symbol: '△' },
  { name: 'sextile', degrees: 60, orb: 6, symbol: '⚹' },
  { name: 'square', degrees: 90, orb: 5, symbol: '□' },
];

export interface Aspect {
  p1: PointKey;
  p1_name: string;
  p1_abs_pos: number;
  p2: PointKey;
  p2_name: string;
  p2_abs_pos: number;
  aspect: AspectName;
  aspect_degrees: number;
  /** Angular separation of the two points, 0–180°. */
  angle: number;
  /** Exact distance from the aspect's angle in degrees, |angle − aspect_degrees| (≥ 0). */
  orb: number;
}

/** Shortest angular distance between two longitudes, 0–180°. */
export function angularSeparation(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** The major aspect two longitudes form within its orb, or null. The orbs never overlap. */
export function aspectBetween(
  a: number,
  b: number,
): { definition: AspectDefinition; angle: number; orb: number } | null {
  const angle = angularSeparation(a, b);
  for (const definition of MAJOR_ASPECTS) {
    const orb = Math.abs(angle - definition.degrees);
    if (orb <= definition.orb) return { definition, angle, orb };
  }
  return null;
}

export interface PositionedPoint {
  abs_pos: number;
}

/** A chart's points; the angles are absent when the birth time is unknown. */
type PointsOf = Readonly<Partial<Record<PointKey, PositionedPoint>>>;

const NODES: ReadonlySet<PointKey> = new Set([
  'mean_node',
  'true_node',
  'mean_south_node',
  'true_south_node',
]);

/**
 * Pairs whose aspect is structural rather than a feature of the chart and therefore left out:
 * the four lunar-node points with one another (always conjunct or opposed) and Ascendant with
 * Medium Coeli (fixed by the latitude and the sidereal time).
 */
export function isStructuralPair(a: PointKey, b: PointKey): boolean {
  if (NODES.has(a) && NODES.has(b)) return true;
  return (a === 'ascendant' && b === 'medium_coeli') || (a === 'medium_coeli' && b === 'ascendant');
}

function makeAspect(p1: PointKey, lon1: number, p2: PointKey, lon2: number): Aspect | null {
  const found = aspectBetween(lon1, lon2);
  if (!found) return null;
  return {
    p1,
    p1_name: POINT_NAMES[p1],
    p1_abs_pos: lon1,
    p2,
    p2_name: POINT_NAMES[p2],
    p2_abs_pos: lon2,
    aspect: found.definition.name,
    aspect_degrees: found.definition.degrees,
    angle: found.angle,
    orb: found.orb,
  };
}

/** Tightest first; ties keep the point order of POINT_KEYS. */
function byOrb(a: Aspect, b: Aspect): number {
  return a.orb - b.orb;
}

/** Major aspects within one chart, every unordered pair once, tightest first. */
export function natalAspects(points: PointsOf): Aspect[] {
  const aspects: Aspect[] = [];
  for (let i = 0; i < POINT_KEYS.length; i++) {
    const a = POINT_KEYS[i]!;
    for (let j = i + 1; j < POINT_KEYS.length; j++) {
      const b = POINT_KEYS[j]!;
      const pa = points[a];
      const pb = points[b];
      if (!pa || !pb || isStructuralPair(a, b)) continue;
      const aspect = makeAspect(a, pa.abs_pos, b, pb.abs_pos);
      if (aspect) aspects.push(aspect);
    }
  }
  return aspects.sort(byOrb);
}

/**
 * Major aspects between two charts: every (point of person 1, point of person 2) pair, p1 always
 * from the first chart. Tightest first.
 */
export function synastryAspects(
  first: PointsOf,
  second: PointsOf,
  keys: readonly PointKey[] = POINT_KEYS,
): Aspect[] {
  const aspects: Aspect[] = [];
  for (const a of keys) {
    for (const b of keys) {
      const pa = first[a];
      const pb = second[b];
      if (!pa || !pb) continue;
      const aspect = makeAspect(a, pa.abs_pos, b, pb.abs_pos);
      if (aspect) aspects.push(aspect);
    }
  }
  return aspects.sort(byOrb);
}
