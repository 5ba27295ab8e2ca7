import { z } from 'zod';
import { text as checkedText, isTimeZone } from './common.ts';

/** The spec's limits and messages of the reading forms. */
export const TAROT_QUESTION_MAX_WORDS = 300;
export const CELTIC_CROSS_QUESTION_MAX_CHARACTERS = 500;
/** The year lists of every birth date start here; an earlier year is typed. */
export const YEAR_LIST_FIRST_YEAR = 1900;
/** Charts and compatibility: the bundled Swiss Ephemeris files begin in 1800. */
export const CHART_FIRST_YEAR = 1800;
/** Numerology needs only the digits of a real date. */
export const NUMEROLOGY_FIRST_YEAR = 1;
export const readingMessages = {
  missingBirthInformation: 'Please fill in all birth information fields.',
  nameAndQuestion: 'Please enter your name and question',
  questionTooManyWords: 'Please keep your question under 300 words for the best results.',
  allRequiredFields: 'Please fill in all required fields',
  questionTooLong: 'Please reduce your question to 500 characters or less.',
  insufficientCredits: "You don't have enough credits. Please purchase more to continue.",
  generationFailed: 'Failed to generate your reading. Please try again.',
  accountBlocked: 'Your account has been blocked. Please contact support.',
} as const;

export const countWords = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

const text = z.string({
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be text'),
});
/** Free text (the shared rule of `common.ts`): trimmed, readable, no controls; then its length. */
const required = (max: number, multiline = false) =>
  checkedText({ multiline }).min(1, 'is required').max(max, `must be at most ${max} characters`);
/** An IANA time zone name that this runtime knows (`Europe/London`, `UTC`). */
const timeZone = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, {
    message: 'must be a time zone name such as Europe/London',
    abort: true,
  })
  .refine(isTimeZone, { error: (issue) => `Unknown time zone '${String(issue.input)}'` });
const today = () => new Date().toISOString().slice(0, 10);
/**
 * A real day (YYYY-MM-DD) from `firstYear` to today (UTC). `abort`: a value that is no date gets
 * that one message, not the range checks' too.
 */
export const birthDateFrom = (firstYear: number) =>
  z.iso
    .date({ error: 'must be a date (YYYY-MM-DD)', abort: true })
    .refine(
      (day) => day >= `${String(firstYear).padStart(4, '0')}-01-01`,
      `must be in ${firstYear} or later`,
    )
    .refine((day) => day <= today(), 'must not be in the future');
const birthDate = birthDateFrom(CHART_FIRST_YEAR);
const birthTime = text.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time (HH:MM)');

/** The time a chart is drawn for when the birth time is unknown. */
export const UNKNOWN_BIRTH_TIME_NOON = '12:00';
const latitude = z
  .number({ error: 'must be a latitude in decimal degrees (north positive), e.g. 47.5957' })
  .min(-90, 'must be between -90 and 90 (decimal degrees, north positive)')
  .max(90, 'must be between -90 and 90 (decimal degrees, north positive)');
const longitude = z
  .number({ error: 'must be a longitude in decimal degrees (east positive), e.g. 9.3257' })
  .min(-180, 'must be between -180 and 180 (decimal degrees, east positive)')
  .max(180, 'must be between -180 and 180 (decimal degrees, east positive)');

/**
 * A person's birth data.
 * - The time: `birthTime`, or `timeUnknown: true` without one (the chart is then drawn for noon,
 *   with no Ascendant, Midheaven or houses).
 * - The place: `city` in `country`, looked up in the place index; or, for a place the index
 *   lacks, `latitude` and `longitude` (decimal degrees), `city` its label: the server finds the
 *   time zone at the coordinates and the country of the nearest listed place. A `timezone` given
 *   with the coordinates (a chosen suggestion's) is kept.
 */
export const birthDataSchema = z
  .strictObject({
    firstName: required(100),
    lastName: required(100),
    birthDate,
    birthTime: birthTime.optional(),
    timeUnknown: z.boolean({ error: 'must be true or false' }).optional(),
    city: required(120),
    country: required(120),
    latitude: latitude.optional(),
    longitude: longitude.optional(),
    timezone: timeZone.optional(),
  })
  // Checked even when other fields failed (`when`), so that one answer names every field.
  .superRefine(
    (p, ctx) => {
      // With `when`, this also sees input that failed: read it only as an object.
      if (typeof p !== 'object' || p === null) return;
      if (p.timeUnknown === true && p.birthTime !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['birthTime'],
          message: 'must be left out when timeUnknown is true',
        });
      }
      if (p.timeUnknown !== true && p.birthTime === undefined) {
        ctx.addIssue({ code: 'custom', path: ['birthTime'], message: 'is required' });
      }
    },
    { when: () => true },
  )
  .refine((p) => (p.latitude === undefined) === (p.longitude === undefined), {
    message: 'latitude and longitude go together',
    path: ['longitude'],
  });
export type BirthData = z.infer<typeof birthDataSchema>;

export const natalChartRequestSchema = birthDataSchema;

export const tarotTraditionalRequestSchema = z.strictObject({
  firstName: required(100),
  question: required(5000, true).refine(
    (q) => countWords(q) <= TAROT_QUESTION_MAX_WORDS,
    readingMessages.questionTooManyWords,
  ),
});

export const celticCrossRequestSchema = z.strictObject({
  firstName: required(100),
  question: checkedText({ multiline: true })
    .min(1, 'is required')
    .max(CELTIC_CROSS_QUESTION_MAX_CHARACTERS, readingMessages.questionTooLong),
});

export const compatibilityRequestSchema = z.strictObject({
  person1: birthDataSchema,
  person2: birthDataSchema,
});

export const lifePathRequestSchema = z.strictObject({
  firstName: required(100),
  lastName: required(100),
  birthDate: birthDateFrom(NUMEROLOGY_FIRST_YEAR),
});

/** `201` of every `POST /api/readings/...`. */
export const readingCreatedSchema = z.object({
  readingId: z.string(),
  appId: z.number().int(),
  remainingCredits: z.number().int(),
  result: z.record(z.string(), z.unknown()),
});
export type ReadingCreated = z.infer<typeof readingCreatedSchema>;

/** `GET /api/readings/:id`. */
export const readingViewSchema = z.object({
  readingId: z.string(),
  appId: z.number().int(),
  appName: z.string(),
  firstName: z.string().nullable(),
  /** The second person of a compatibility reading ('Maya & Jonas'); null for the others. */
  partnerName: z.string().nullable(),
  question: z.string().nullable(),
  input: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  creditsCharged: z.number().int(),
  createdAt: z.string(),
  /** The voice guide was used on this reading (a session that connected). */
  voiceUsed: z.boolean(),
});
export type ReadingView = z.infer<typeof readingViewSchema>;

export const LIBRARY_PAGE_SIZE = 25;
export const libraryItemSchema = readingViewSchema.omit({ input: true, result: true });
export type LibraryItem = z.infer<typeof libraryItemSchema>;
export const libraryPageSchema = z.object({
  items: z.array(libraryItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The apps present in this user's readings (the filter's options besides 'All Apps'). */
  apps: z.array(z.object({ appId: z.number().int(), appName: z.string() })),
});
export type LibraryPage = z.infer<typeof libraryPageSchema>;

/** A place of the place index, as the birthplace fields and the profile keep it. */
export const birthPlaceSchema = z.strictObject({
  name: required(120),
  /** ISO 3166-1 alpha-2. */
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO country code such as DE'),
  countryName: required(120),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  timezone: timeZone,
  /** How the place is shown: "Zürich, Switzerland", "Paris, TN, United States". */
  label: required(200),
});
export type BirthPlace = z.infer<typeof birthPlaceSchema>;

/** `GET /api/places?q=`: a place, and when its time zone began standard time. */
export const placeViewSchema = birthPlaceSchema.extend({
  /**
   * The day (YYYY-MM-DD, on the zone's clock) the place's time zone began standard time; births
   * before it are read in the birthplace's own local mean time. Null: the zone never kept LMT.
   */
  standardTimeSince: z.iso.date().nullable(),
});
export type PlaceView = z.infer<typeof placeViewSchema>;
export const placesQuerySchema = z.object({
  q: checkedText().min(1, 'is required').max(120, 'must be at most 120 characters'),
});

/** A decimal number as a query parameter: '47.5957', '-9.3', not '' or '1e3'. */
const decimalParam = (schema: z.ZodNumber, example: string) =>
  z
    .string({ error: `is required (decimal degrees, e.g. ${example})` })
    .trim()
    .regex(/^[-+]?\d{1,3}(\.\d+)?$/, {
      message: `must be a decimal number of degrees, e.g. ${example}`,
      abort: true,
    })
    .transform(Number)
    .pipe(schema);

/**
 * `GET /api/places/at?latitude=&longitude=&label=`: a birthplace the index lacks, given by its
 * coordinates; the answer names its time zone (the server's, from the coordinates).
 */
export const placeAtQuerySchema = z.object({
  latitude: decimalParam(latitude, '47.5957'),
  longitude: decimalParam(longitude, '9.3257'),
  label: checkedText().max(120, 'must be at most 120 characters').optional(),
});
export type PlaceAtQuery = z.infer<typeof placeAtQuerySchema>;
