import type { AppView } from '@astra/contracts';
import { APP_IDS } from '../readings/readingCatalog';

/** The readings a plan is measured in, in the spec's order. */
const ESTIMATED_READINGS = [
  { appId: APP_IDS.natalChart, one: 'birth chart', many: 'birth charts' },
  { appId: APP_IDS.compatibility, one: 'compatibility reading', many: 'compatibility readings' },
  { appId: APP_IDS.tarotTraditional, one: 'tarot reading', many: 'tarot readings' },
  { appId: APP_IDS.lifePath, one: 'life path reading', many: 'life path readings' },
];

/**
 * '≈ 2 birth charts, 7 compatibility readings, …': the credits divided by each reading's live
 * cost (GET /api/apps), rounded down. Null without costs: never guessed from fixed numbers.
 */
export function readingEstimate(credits: number, apps: AppView[] | undefined): string | null {
  if (!apps) return null;
  const parts = ESTIMATED_READINGS.flatMap(({ appId, one, many }) => {
    const cost = apps.find((app) => app.appId === appId)?.creditCost;
    if (!cost || cost <= 0) return [];
    const count = Math.floor(credits / cost);
    return [`${count} ${count === 1 ? one : many}`];
  });
  return parts.length > 0 ? `≈ ${parts.join(', ')}` : null;
}
