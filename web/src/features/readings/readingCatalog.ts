/**
 * The five reading apps by the server's app id (spec: 1 natal chart, 2 Celtic Cross, 3 tarot
 * traditional, 4 compatibility, 5 life path). Names here are fallbacks; the server's name and
 * credit cost (GET /api/apps) win.
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
  /** Loads the result page's code (its route loads it too): a form fetches it while it is filled in. */
  loadResultPage: () => Promise<unknown>;
}

const byId = (path: string) => (readingId: string) => `${path}/${encodeURIComponent(readingId)}`;
const byQuery = (path: string) => (readingId: string) =>
  `${path}?${new URLSearchParams({ readingId })}`;

export const READING_APPS: Record<number, ReadingAppInfo> = {
  1: {
    appId: 1,
    name: 'Natal Birth Chart',
    formPath: '/natalbirthchart',
    blurb: 'The sky at the moment you were born: your sun, moon, rising sign and the houses.',
    defaultCost: 24,
    resultPath: byId('/natalbirthchart_result'),
    loadResultPage: () => import('./natalChart/NatalChartResultPage'),
  },
  2: {
    appId: 2,
    name: 'Tarot Celtic Cross',
    formPath: '/tarot-celtic-cross',
    blurb: 'A ten-card spread for a big question, from its roots to where it may lead.',
    defaultCost: 12,
    resultPath: byQuery('/tarot-celtic-cross-result'),
    loadResultPage: () => import('./celticCross/CelticCrossResultPage'),
  },
  3: {
    appId: 3,
    name: 'Tarot Traditional',
    formPath: '/tarot-traditional',
    blurb: 'Three cards for your past, present and future, read around your question.',
    defaultCost: 4,
    resultPath: byQuery('/tarot-result'),
    loadResultPage: () => import('./tarot/TarotResultPage'),
  },
  4: {
    appId: 4,
    name: 'Compatibility Reading',
    formPath: '/compatibility',
    blurb: 'How two charts meet: where you flow together and where you grow.',
    defaultCost: 8,
    resultPath: byId('/compatibility_result'),
    loadResultPage: () => import('./compatibility/CompatibilityResultPage'),
  },
  5: {
    appId: 5,
    name: 'Life Path Number',
    formPath: '/lifepathnumber',
    blurb: 'The numerology of your name and birth date, and the path they describe.',
    defaultCost: 5,
    resultPath: byQuery('/lifepathnumber-result'),
    loadResultPage: () => import('./lifePath/LifePathResultPage'),
  },
};

export const APP_IDS = {
  natalChart: 1,
  celticCross: 2,
  tarotTraditional: 3,
  compatibility: 4,
  lifePath: 5,
} as const;

/** The app's title, by the server's app id (the library lists readings by these names). */
export const appTitle = (appId: number, fallback = 'Reading') =>
  READING_APPS[appId]?.name ?? fallback;

/** Spec §9: tarot traditional, natal birth chart, life path number, Celtic Cross, compatibility. */
export const DASHBOARD_APP_ORDER = [3, 1, 5, 2, 4] as const;
