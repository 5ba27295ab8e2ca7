import { readingAppIds } from '@astra/contracts';

/** The server's app id of each reading (the contracts pair each with its route). */
export const APP_IDS = {
  natalChart: readingAppIds['natal-chart'],
  celticCross: readingAppIds['tarot-celtic-cross'],
  tarotTraditional: readingAppIds['tarot-traditional'],
  compatibility: readingAppIds.compatibility,
  lifePath: readingAppIds['life-path'],
} as const;

/**
 * The five reading apps by the server's app id. Names here are fallbacks; the server's name and
 * credit cost (GET /api/apps) win. Data only: the result pages import it, so their loaders live
 * apart (resultPages.ts).
 */
export interface ReadingAppInfo {
  appId: number;
  name: string;
  formPath: string;
  blurb: string;
  /** Spec §9: the cost the forms use when GET /api/apps fails. */
  defaultCost: number;
  /** Where a reading of this app is shown (spec §2's result routes). */
  resultPath: (readingId: string) => string;
}

const byId = (path: string) => (readingId: string) => `${path}/${encodeURIComponent(readingId)}`;
const byQuery = (path: string) => (readingId: string) =>
  `${path}?${new URLSearchParams({ readingId })}`;

export const READING_APPS: Record<number, ReadingAppInfo> = {
  [APP_IDS.natalChart]: {
    appId: APP_IDS.natalChart,
    name: 'Natal Birth Chart',
    formPath: '/natalbirthchart',
    blurb: 'The sky at the moment you were born: your sun, moon, rising sign and the houses.',
    defaultCost: 24,
    resultPath: byId('/natalbirthchart_result'),
  },
  [APP_IDS.celticCross]: {
    appId: APP_IDS.celticCross,
    name: 'Tarot Celtic Cross',
    formPath: '/tarot-celtic-cross',
    blurb: 'A ten-card spread for a big question, from its roots to where it may lead.',
    defaultCost: 12,
    resultPath: byQuery('/tarot-celtic-cross-result'),
  },
  [APP_IDS.tarotTraditional]: {
    appId: APP_IDS.tarotTraditional,
    name: 'Tarot Traditional',
    formPath: '/tarot-traditional',
    blurb: 'Three cards for your past, present and future, read around your question.',
    defaultCost: 4,
    resultPath: byQuery('/tarot-result'),
  },
  [APP_IDS.compatibility]: {
    appId: APP_IDS.compatibility,
    name: 'Compatibility Reading',
    formPath: '/compatibility',
    blurb: 'How two charts meet: where you flow together and where you grow.',
    defaultCost: 8,
    resultPath: byId('/compatibility_result'),
  },
  [APP_IDS.lifePath]: {
    appId: APP_IDS.lifePath,
    name: 'Life Path Number',
    formPath: '/lifepathnumber',
    blurb: 'The numerology of your name and birth date, and the path they describe.',
    defaultCost: 5,
    resultPath: byQuery('/lifepathnumber-result'),
  },
};

/** The app's title, by the server's app id (the library lists readings by these names). */
export const appTitle = (appId: number, fallback = 'Reading') =>
  READING_APPS[appId]?.name ?? fallback;

/** Spec §9: tarot traditional, natal birth chart, life path number, Celtic Cross, compatibility. */
export const DASHBOARD_APP_ORDER = [
  APP_IDS.tarotTraditional,
  APP_IDS.natalChart,
  APP_IDS.lifePath,
  APP_IDS.celticCross,
  APP_IDS.compatibility,
] as const;
