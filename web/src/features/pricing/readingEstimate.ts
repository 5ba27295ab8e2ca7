import type { AppView, ReadingKind } from '@astra/contracts';

/** The readings a plan is measured in, in the spec's order. */
const ESTIMATED_READINGS: { slug: ReadingKind; one: string; many: string }[] = [
  { slug: 'natal-chart', one: 'birth chart', many: 'birth charts' },
  { slug: 'compatibility', one: 'compatibility reading', many: 'compatibility readings' },
  { slug: 'tarot-traditional', one: 'tarot reading', many: 'tarot readings' },
  { slug: 'life-path', one: 'life path reading', many: 'life path readings' },
];

/**
 * '≈ 2 birth charts, 7 compatibility readings, …': the credits divided by each reading's live
 * cost (GET /api/apps), rounded down. Null without costs: never guessed from fixed numbers.
 */
export function readingEstimate(credits: number, apps: AppView[] | undefined): string | null {
  if (!apps) return null;
  const parts = ESTIMATED_READINGS.flatMap(({ slug, one, many }) => {
    const cost = apps.find((app) => app.slug === slug)?.creditCost;
    if (!cost || cost <= 0) return [];
    const count = Math.floor(credits / cost);
    return [`${count} ${count === 1 ? one : many}`];
  });
  return parts.length > 0 ? `≈ ${parts.join(', ')}` : null;
}
