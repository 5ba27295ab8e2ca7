import type { ReadingView } from '@astra/contracts';
import { formatLongDate } from '@astra/contracts';
import { count, type Fields, fields, text } from '../result/resultFields';

/** Spec §9: the compatibility score is out of 44. */
export { COMPATIBILITY_SCORE_MAX } from '@astra/contracts';

/** Every contact between the two charts, by nature, as the report counts them. */
export interface ContactCounts {
  total: number;
  harmonious: number;
  challenging: number;
  conjunctions: number;
}

const HARMONIOUS = new Set(['trine', 'sextile']);
const CHALLENGING = new Set(['square', 'opposition']);

/** Counts the result's synastry aspects; null when the result has none listed (older ones). */
export function contactCounts(aspects: unknown): ContactCounts | null {
  if (!Array.isArray(aspects)) return null;
  const kinds = aspects.map((aspect) => text(fields(aspect).aspect));
  const harmonious = kinds.filter((kind) => kind && HARMONIOUS.has(kind)).length;
  const challenging = kinds.filter((kind) => kind && CHALLENGING.has(kind)).length;
  const conjunctions = kinds.filter((kind) => kind === 'conjunction').length;
  return { total: kinds.length, harmonious, challenging, conjunctions };
}

export interface PersonView {
  firstName?: string;
  lastName?: string;
  birthDate?: string;
  birthTime?: string;
  /** The birth time was unknown: the chart was drawn for noon, without houses. */
  timeUnknown?: boolean;
  city?: string;
  country?: string;
}

export interface CompatibilityView {
  score: number;
  description?: string;
  contacts: ContactCounts | null;
  report: string;
  person1: PersonView;
  person2: PersonView;
}

function person(source: Fields): PersonView {
  return {
    firstName: text(source.firstName),
    lastName: text(source.lastName),
    birthDate: text(source.birthDate),
    birthTime: text(source.birthTime),
    timeUnknown: source.timeUnknown === true,
    city: text(source.city),
    country: text(source.country),
  };
}

/** The result, with the people from the result or else from the request that made it. */
export function compatibilityFromReading(reading: ReadingView): CompatibilityView | null {
  const { result, input } = reading;
  const score = count(result.compatibility_score);
  const report = text(result.full_report);
  if (score === undefined || report === undefined) return null;
  const personOf = (key: 'person1' | 'person2') =>
    person(isEmpty(result[key]) ? fields(input[key]) : fields(result[key]));
  return {
    score,
    description: text(result.compatibility_score_description),
    contacts: contactCounts(result.aspects),
    report,
    person1: personOf('person1'),
    person2: personOf('person2'),
  };
}

const isEmpty = (value: unknown) => Object.keys(fields(value)).length === 0;

export const personName = (p: PersonView, number: 1 | 2) =>
  [p.firstName, p.lastName].filter((part) => part?.trim()).join(' ') || `Person ${number}`;

/** Spec §5: long US date; 'Unknown' when missing, 'Invalid Date' when it is not a date. */
export function personBirthDate(date: string | undefined): string {
  if (!date?.trim()) return 'Unknown';
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return formatLongDate(date);
  const day = new Date(date);
  if (Number.isNaN(day.getTime())) return 'Invalid Date';
  return formatLongDate(day.toISOString().slice(0, 10));
}

/** Spec §2: the birth time's first five characters (HH:MM), or N/A. */
export const personBirthTime = (time: string | undefined) =>
  time?.trim() ? time.trim().slice(0, 5) : 'N/A';
