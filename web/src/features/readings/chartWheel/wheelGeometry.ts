/**
 * Pure geometry of the chart wheel. Angles are in degrees, counter-clockwise from the right
 * (mathematical convention); lengths are in the drawing's own unitless coordinates.
 */
export interface Point2 {
  x: number;
  y: number;
}

export const normalizeDegrees = (degrees: number) => ((degrees % 360) + 360) % 360;

/**
 * Where a zodiac longitude sits on the wheel: the Ascendant on the left (180°) and the zodiac
 * running counter-clockwise, as charts are drawn.
 */
export const wheelAngle = (longitude: number, ascendant: number) =>
  normalizeDegrees(180 + longitude - ascendant);

/** A point at `radius` and `angle` around `center` (SVG's y axis points down). */
export function polar(center: number, radius: number, angle: number): Point2 {
  const radians = (angle * Math.PI) / 180;
  return { x: center + radius * Math.cos(radians), y: center - radius * Math.sin(radians) };
}

/** Counter-clockwise distance from `from` to `to`, 0–360. */
export const arcLength = (from: number, to: number) => normalizeDegrees(to - from);

/** The angle halfway along the counter-clockwise arc from `from` to `to`. */
export const midAngle = (from: number, to: number) =>
  normalizeDegrees(from + arcLength(from, to) / 2);

const round = (n: number) => Math.round(n * 100) / 100;

/** A ring sector between two radii, counter-clockwise from `start` to `end`, as an SVG path. */
export function sectorPath(
  center: number,
  inner: number,
  outer: number,
  start: number,
  end: number,
): string {
  const large = arcLength(start, end) > 180 ? 1 : 0;
  const a = polar(center, outer, start);
  const b = polar(center, outer, end);
  const c = polar(center, inner, end);
  const d = polar(center, inner, start);
  return [
    `M ${round(a.x)} ${round(a.y)}`,
    `A ${outer} ${outer} 0 ${large} 0 ${round(b.x)} ${round(b.y)}`,
    `L ${round(c.x)} ${round(c.y)}`,
    `A ${inner} ${inner} 0 ${large} 1 ${round(d.x)} ${round(d.y)}`,
    'Z',
  ].join(' ');
}

/**
 * Display angles for glyphs so that no two are closer than `minGap` degrees, each as near its
 * true angle as the crowd allows: runs of crowded glyphs are spread evenly around their mean,
 * and runs that then touch are merged and spread again. Input order is kept in the output.
 */
export function spreadAngles(angles: readonly number[], minGap: number): number[] {
  const n = angles.length;
  if (n < 2) return angles.map(normalizeDegrees);
  const gap = Math.min(minGap, 360 / n);
  const order = angles.map((angle, index) => ({ angle: normalizeDegrees(angle), index }));
  order.sort((a, b) => a.angle - b.angle);

  // Unroll the circle at its widest empty stretch, so no crowd straddles the cut.
  let cut = 0;
  let widest = -1;
  order.forEach((item, i) => {
    const next = order[(i + 1) % n]!;
    const space = arcLength(item.angle, next.angle) || (n === 1 ? 360 : 0);
    if (space > widest) {
      widest = space;
      cut = (i + 1) % n;
    }
  });
  const base = order[cut]!.angle;
  const linear = Array.from({ length: n }, (_, k) => {
    const item = order[(cut + k) % n]!;
    return { index: item.index, value: base + arcLength(base, item.angle) };
  });

  // Clusters of consecutive glyphs; each is laid out evenly around its members' mean.
  type Cluster = { from: number; to: number; first: number };
  const place = (from: number, to: number): Cluster => {
    let sum = 0;
    for (let k = from; k <= to; k++) sum += linear[k]!.value;
    const size = to - from + 1;
    return { from, to, first: sum / size - ((size - 1) * gap) / 2 };
  };
  let clusters: Cluster[] = linear.map((_, k) => place(k, k));
  let merged = true;
  while (merged) {
    merged = false;
    const next: Cluster[] = [];
    for (const cluster of clusters) {
      const previous = next[next.length - 1];
      const previousEnd = previous ? previous.first + (previous.to - previous.from) * gap : 0;
      if (previous && cluster.first - previousEnd < gap - 1e-9) {
        next[next.length - 1] = place(previous.from, cluster.to);
        merged = true;
      } else {
        next.push(cluster);
      }
    }
    clusters = next;
  }

  const result = new Array<number>(n);
  for (const cluster of clusters) {
    for (let k = cluster.from; k <= cluster.to; k++) {
      result[linear[k]!.index] = normalizeDegrees(cluster.first + (k - cluster.from) * gap);
    }
  }
  return result;
}
