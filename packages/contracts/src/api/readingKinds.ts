import { z } from 'zod';
import { text as checkedText } from './common.ts';
import {
  celticCrossRequestSchema,
  compatibilityRequestSchema,
  lifePathRequestSchema,
  natalChartRequestSchema,
  tarotTraditionalRequestSchema,
} from './readings.ts';

/** A price in credits from a day on (UTC, YYYY-MM-DD). */
export interface DatedPrice {
  from: string;
  credits: number;
}

/**
 * One reading kind: everything the server, the read models and the web derive from it. Adding a
 * kind is one record here plus its engine (server) and pages (web); the compiler asks for those.
 */
export interface ReadingKindRecord<
  Slug extends string = string,
  Schema extends z.ZodType = z.ZodType,
> {
  /** Its routes' segment (`POST /api/readings/{slug}`) and its key everywhere but HTTP answers. */
  slug: Slug;
  /** Its number in HTTP answers, events and `read.apps`; never reused. */
  appId: number;
  /** Its name in the library, the ledger and the catalogue. */
  name: string;
  /** Its routes' summary: 'A natal chart reading'. */
  title: string;
  description: string;
  /** The request body of its routes. */
  schema: Schema;
  /** The `result` field that holds the text (the other fields are its facts). */
  textField: string;
  /** The voice guide's minutes included with a reading. */
  voiceMinutes: number;
  /**
   * Its price: the launch price, then each change from its day on. A change is a new entry, never
   * an edit: a reading's spend records what it cost, and the list keeps what applied when.
   */
  prices: readonly [{ credits: number }, ...DatedPrice[]];
}

/** Declares a record, keeping its literal slug and its schema's type. */
export const readingKind = <const Slug extends string, Schema extends z.ZodType>(
  record: ReadingKindRecord<Slug, Schema>,
) => record;

/** The price of a kind at an instant: the latest entry whose day has begun (UTC). */
export function priceAt(record: Pick<ReadingKindRecord, 'prices'>, at: Date): number {
  const day = at.toISOString().slice(0, 10);
  const [launch, ...changes] = record.prices;
  return changes.reduce(
    (credits, change) => (change.from <= day ? change.credits : credits),
    launch.credits,
  );
}

/** The operation ids of a kind's two routes: `createReading_natal_chart`, `startReading_natal_chart`. */
export const readingRouteNames = (slug: string) => {
  const name = slug.replaceAll('-', '_');
  return { create: `createReading_${name}`, start: `startReading_${name}` } as const;
};

/** The reading kinds the product ships, in app-id order. */
export const readingKindRecords = [
  readingKind({
    slug: 'natal-chart',
    appId: 1,
    name: 'Natal Birth Chart',
    title: 'A natal chart reading',
    description:
      'Your birth chart: the planets, houses and aspects at the moment you were born, read in depth.',
    schema: natalChartRequestSchema,
    textField: 'fullReport',
    voiceMinutes: 5,
    prices: [{ credits: 24 }],
  }),
  readingKind({
    slug: 'tarot-celtic-cross',
    appId: 2,
    name: 'Tarot Celtic Cross',
    title: 'A Tarot Celtic Cross reading',
    description: 'The classic ten-card spread for a searching look at one question.',
    schema: celticCrossRequestSchema,
    textField: 'text',
    voiceMinutes: 5,
    prices: [{ credits: 12 }],
  }),
  readingKind({
    slug: 'tarot-traditional',
    appId: 3,
    name: 'Tarot Traditional',
    title: 'A Tarot Traditional reading',
    description: 'Three cards for past, present and future around your question.',
    schema: tarotTraditionalRequestSchema,
    textField: 'readingText',
    voiceMinutes: 3,
    prices: [{ credits: 4 }],
  }),
  readingKind({
    slug: 'compatibility',
    appId: 4,
    name: 'Compatibility Reading',
    title: 'A compatibility reading',
    description: 'Two birth charts side by side: where you meet, where you differ.',
    schema: compatibilityRequestSchema,
    textField: 'full_report',
    voiceMinutes: 5,
    prices: [{ credits: 8 }],
  }),
  readingKind({
    slug: 'life-path',
    appId: 5,
    name: 'Life Path Number',
    title: 'A Life Path Number reading',
    description: 'Your life path, destiny and soul urge numbers from your name and birth date.',
    schema: lifePathRequestSchema,
    textField: 'text',
    voiceMinutes: 3,
    prices: [{ credits: 5 }],
  }),
] as const;

type ShippedRecord = (typeof readingKindRecords)[number];
/** A shipped kind's slug: the key of every per-kind map (the compiler finds each for a new kind). */
export type ReadingKind = ShippedRecord['slug'];

/** The shipped records by slug. */
export const readingKinds = Object.fromEntries(
  readingKindRecords.map((record) => [record.slug, record]),
) as { [K in ReadingKind]: Extract<ShippedRecord, { slug: K }> };

/** What a client sends to start a reading of this kind: the schema's input, before its defaults. */
export type ReadingRequestBody<Kind extends ReadingKind> = z.input<
  (typeof readingKinds)[Kind]['schema']
>;
/** A kind's validated form, as its engine takes it. */
export type ReadingForm<Kind extends ReadingKind> = z.output<(typeof readingKinds)[Kind]['schema']>;

/** The shipped kind of an app id (HTTP answers carry app ids). */
export const readingKindOfApp = (appId: number): ReadingKind | undefined =>
  readingKindRecords.find((record) => record.appId === appId)?.slug;

/** `GET /api/library`'s query: `appId` is one of the shipped kinds' (1 to the highest). */
export const libraryQuerySchema = z.object({
  search: checkedText().max(200, 'must be at most 200 characters').optional(),
  appId: z.coerce
    .number()
    .int()
    .min(1)
    .max(Math.max(...readingKindRecords.map((record) => record.appId)))
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
