import { priceAt, type ReadingKind, readingKindOfApp, readingKinds } from '@astra/contracts';

/**
 * The web's side of each reading kind, keyed by the contracts' slug: a kind added to
 * `readingKindRecords` is a compile error here until it has its pages. Its name and app id come
 * from the record; the server's name and credit cost (GET /api/apps) win where loaded. Data only:
 * the result pages import it, so their loaders live apart (resultPages.ts).
 */
export interface ReadingAppInfo {
  slug: ReadingKind;
  /** The kind's number in HTTP answers (readings, library, ledger): only ever compared there. */
  appId: number;
  name: string;
  formPath: string;
  blurb: string;
  /** Where a reading of this kind is shown (spec §2's result routes). */
  resultPath: (readingId: string) => string;
}

const byId = (path: string) => (readingId: string) => `${path}/${encodeURIComponent(readingId)}`;
const byQuery = (path: string) => (readingId: string) =>
  `${path}?${new URLSearchParams({ readingId })}`;

type Pages = Pick<ReadingAppInfo, 'formPath' | 'blurb' | 'resultPath'>;
const reading = (slug: ReadingKind, pages: Pages): ReadingAppInfo => ({
  slug,
  appId: readingKinds[slug].appId,
  name: readingKinds[slug].name,
  ...pages,
});

/** Every reading kind, in the dashboard's order (spec §9). */
export const READINGS: { readonly [Kind in ReadingKind]: ReadingAppInfo } = {
  'tarot-traditional': reading('tarot-traditional', {
    formPath: '/tarot-traditional',
    blurb: 'Three cards for your past, present and future, read around your question.',
    resultPath: byQuery('/tarot-result'),
  }),
  'natal-chart': reading('natal-chart', {
    formPath: '/natalbirthchart',
    blurb: 'The sky at the moment you were born: your sun, moon, rising sign and the houses.',
    resultPath: byId('/natalbirthchart_result'),
  }),
  'life-path': reading('life-path', {
    formPath: '/lifepathnumber',
    blurb: 'The numerology of your name and birth date, and the path they describe.',
    resultPath: byQuery('/lifepathnumber-result'),
  }),
  'tarot-celtic-cross': reading('tarot-celtic-cross', {
    formPath: '/tarot-celtic-cross',
    blurb: 'A ten-card spread for a big question, from its roots to where it may lead.',
    resultPath: byQuery('/tarot-celtic-cross-result'),
  }),
  compatibility: reading('compatibility', {
    formPath: '/compatibility',
    blurb: 'How two charts meet: where you flow together and where you grow.',
    resultPath: byId('/compatibility_result'),
  }),
};

/** The kind of an app id from an HTTP answer; undefined for one this web app does not know. */
export const readingOfApp = (appId: number): ReadingAppInfo | undefined => {
  const kind = readingKindOfApp(appId);
  return kind && READINGS[kind];
};

/** The app's title, by an answer's app id (the library lists readings by these names). */
export const appTitle = (appId: number, fallback = 'Reading') =>
  readingOfApp(appId)?.name ?? fallback;

/** Spec §9: what a form shows while GET /api/apps loads or if it fails: the record's price now. */
export const recordedCost = (slug: ReadingKind) => priceAt(readingKinds[slug], new Date());
