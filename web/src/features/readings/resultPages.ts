import { APP_IDS } from './readingCatalog';

/**
 * Each app's result page code, by app id: a form fetches it while it is filled in, so the page
 * opens the moment the reading starts (its route loads it too). Apart from the catalogue,
 * which the result pages import.
 */
const RESULT_PAGES: Record<number, () => Promise<unknown>> = {
  [APP_IDS.natalChart]: () => import('./natalChart/NatalChartResultPage'),
  [APP_IDS.celticCross]: () => import('./celticCross/CelticCrossResultPage'),
  [APP_IDS.tarotTraditional]: () => import('./tarot/TarotResultPage'),
  [APP_IDS.compatibility]: () => import('./compatibility/CompatibilityResultPage'),
  [APP_IDS.lifePath]: () => import('./lifePath/LifePathResultPage'),
};

/** Fetches the app's result page code; a failure is left to the route, which loads it again. */
export const preloadResultPage = (appId: number) => {
  void RESULT_PAGES[appId]?.().catch(() => {});
};
