/**
 * Everything a reading is written from, computed here so that the offline writer and the
 * language-model prompts work from the same numbers. The API resolves the input, calls one of
 * these, hands the facts to a NarrativeWriter and assembles the result (results.ts).
 */
import { type Aspect, synastryAspects } from './astro/aspects.ts';
import { computeNatalChart, type NatalChart } from './astro/natalChart.ts';
import type { PointKey } from './astro/zodiac.ts';
import { type RelationshipScore, relationshipScore } from './compatibility/relationshipScore.ts';
import { ReadingInputError } from './errors.ts';
import {
  computeNumerology,
  type NumerologyFacts,
  type NumerologyInput,
} from './numerology/numerology.ts';
import { countryName, resolveCountry } from './places/countries.ts';
import { findPlace, placeAt } from './places/places.ts';
import { cryptoRandom, type RandomSource } from './tarot/random.ts';
import { drawCelticCross, drawThreeCardSpread, type PlacedCard } from './tarot/spreads.ts';
import { isValidTimeZone } from './time/localTime.ts';

export interface BirthDetails {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  birthDate: string;
  /** HH:MM (24-hour); absent or null with `timeUnknown`. */
  birthTime?: string | null;
  /** The birth time is unknown: the chart is drawn for noon, without angles or houses. */
  timeUnknown?: boolean | null;
  city: string;
  country: string;
  /** Given together with longitude, they override the place lookup. */
  latitude?: number | null;
  longitude?: number | null;
  /** IANA name; given, it overrides the zone found for the place. */
  timezone?: string | null;
}

export interface ResolvedPlace {
  name: string;
  /** ISO alpha-2 when known, else the country as typed. */
  country: string;
  countryName: string;
  latitude: number;
  longitude: number;
  timezone: string;
  /** 'lookup': found by findPlace; 'given': coordinates supplied by the caller. */
  source: 'lookup' | 'given';
}

/**
 * The birthplace: the caller's coordinates when both are given, else findPlace(city, country).
 * With coordinates and a time zone (a chosen suggestion's), both are kept; with coordinates
 * alone (a place the index lacks), the zone and the country are found there (placeAt) and
 * `city` is the place's label. Null when the place is unknown; the API answers 400 then, it
 * never guesses.
 */
export function resolveBirthPlace(details: BirthDetails): ResolvedPlace | null {
  const { latitude, longitude, timezone } = details;
  if (timezone != null && !isValidTimeZone(timezone)) {
    throw new ReadingInputError('invalid_timezone', `Unknown time zone '${timezone}'`, 'timezone');
  }
  if (latitude != null && longitude != null) {
    if (!(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180)) {
      throw new ReadingInputError(
        'invalid_coordinates',
        'Latitude or longitude out of range',
        'latitude',
      );
    }
    if (timezone == null) {
      const at = placeAt(latitude, longitude, details.city);
      const { name, country, countryName: countryLabel } = at;
      return {
        name,
        country,
        countryName: countryLabel,
        latitude,
        longitude,
        timezone: at.timezone,
        source: 'given',
      };
    }
    const code = resolveCountry(details.country);
    return {
      name: details.city.trim(),
      country: code ?? details.country.trim(),
      countryName: code ? countryName(code) : details.country.trim(),
      latitude,
      longitude,
      timezone,
      source: 'given',
    };
  }
  const place = findPlace(details.city, details.country);
  if (!place) return null;
  return {
    name: place.name,
    country: place.country,
    countryName: place.countryName,
    latitude: place.latitude,
    longitude: place.longitude,
    timezone: timezone ?? place.timezone,
    source: 'lookup',
  };
}

export interface NatalFacts {
  person: BirthDetails;
  place: ResolvedPlace;
  chart: NatalChart;
}

function unknownPlace(details: BirthDetails, field = 'city'): ReadingInputError {
  return new ReadingInputError(
    'unknown_place',
    `We could not find '${details.city}' in '${details.country}'. Check the spelling of the city and country.`,
    field,
  );
}

/** The birth time to draw the chart for; null when it is unknown. */
export function birthTimeOf(details: BirthDetails): string | null {
  if (details.timeUnknown) return null;
  if (!details.birthTime) {
    throw new ReadingInputError('invalid_time', 'Birth time is required', 'birthTime');
  }
  return details.birthTime;
}

/** Natal chart facts; throws ReadingInputError('unknown_place') for an unknown place. */
export function natalChartFacts(details: BirthDetails, place?: ResolvedPlace): NatalFacts {
  const where = place ?? resolveBirthPlace(details);
  if (!where) throw unknownPlace(details);
  const chart = computeNatalChart({
    date: details.birthDate,
    time: birthTimeOf(details),
    latitude: where.latitude,
    longitude: where.longitude,
    timezone: where.timezone,
  });
  return { person: details, place: where, chart };
}

export interface TarotQuestion {
  firstName: string;
  question: string;
}

export interface TarotFacts extends TarotQuestion {
  spread: 'three_card' | 'celtic_cross';
  cards: PlacedCard[];
}

export function tarotTraditionalFacts(
  input: TarotQuestion,
  random: RandomSource = cryptoRandom,
): TarotFacts {
  return { ...trimmed(input), spread: 'three_card', cards: drawThreeCardSpread(random) };
}

export function celticCrossFacts(
  input: TarotQuestion,
  random: RandomSource = cryptoRandom,
): TarotFacts {
  return { ...trimmed(input), spread: 'celtic_cross', cards: drawCelticCross(random) };
}

function trimmed(input: TarotQuestion): TarotQuestion {
  return { firstName: input.firstName.trim(), question: input.question.trim() };
}

/** Points compared between two charts for the written report. */
export const SYNASTRY_POINTS: readonly PointKey[] = [
  'sun',
  'moon',
  'mercury',
  'venus',
  'mars',
  'jupiter',
  'saturn',
  'ascendant',
  'medium_coeli',
];

export interface CompatibilityFacts {
  person1: NatalFacts;
  person2: NatalFacts;
  score: RelationshipScore;
  /** Major aspects between the personal points of the two charts, tightest first. */
  aspects: Aspect[];
}

/** Names the person an input error is about: `timezone` becomes `person2.timezone`. */
function forPerson<T>(prefix: 'person1' | 'person2', compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (!(error instanceof ReadingInputError)) throw error;
    throw new ReadingInputError(
      error.code,
      error.message,
      `${prefix}.${error.field ?? 'birthDate'}`,
    );
  }
}

export function compatibilityFacts(
  person1: BirthDetails,
  person2: BirthDetails,
): CompatibilityFacts {
  const first = forPerson('person1', () => natalChartFacts(person1));
  const second = forPerson('person2', () => natalChartFacts(person2));
  return {
    person1: first,
    person2: second,
    score: relationshipScore(first.chart.chart, second.chart.chart),
    aspects: synastryAspects(first.chart.chart, second.chart.chart, SYNASTRY_POINTS),
  };
}

export type LifePathFacts = NumerologyFacts;

export function lifePathFacts(input: NumerologyInput): LifePathFacts {
  return computeNumerology(input);
}
