import type { ReadingKind } from '@astra/contracts';

/**
 * Each kind's result page code: a form fetches it while it is filled in, so the page opens the
 * moment the reading starts (its route loads it too). Apart from the catalogue, which the result
 * pages import.
 */
const RESULT_PAGES: { readonly [Kind in ReadingKind]: () => Promise<unknown> } = {
  'natal-chart': () => import('./natalChart/NatalChartResultPage'),
  'tarot-celtic-cross': () => import('./celticCross/CelticCrossResultPage'),
  'tarot-traditional': () => import('./tarot/TarotResultPage'),
  compatibility: () => import('./compatibility/CompatibilityResultPage'),
  'life-path': () => import('./lifePath/LifePathResultPage'),
};

/** Fetches the kind's result page code; a failure is left to the route, which loads it again. */
export const preloadResultPage = (slug: ReadingKind) => {
  void RESULT_PAGES[slug]().catch(() => {});
};
