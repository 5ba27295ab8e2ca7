import { MONTH_NAMES, YEAR_LIST_FIRST_YEAR } from '@astra/contracts';

/** Birth date as three selectors (spec §5): a date exists only when all three are chosen. */
export interface BirthDateParts {
  day: string;
  month: string;
  year: string;
}

export const EMPTY_BIRTH_DATE: BirthDateParts = { day: '', month: '', year: '' };

const pad = (n: number) => String(n).padStart(2, '0');

export const DAY_OPTIONS = Array.from({ length: 31 }, (_, i) => pad(i + 1));

export const MONTH_OPTIONS = MONTH_NAMES.map((name, i) => ({
  value: pad(i + 1),
  label: `${pad(i + 1)} - ${name}`,
}));

/** Newest first: the current year down to `firstYear` (every birth date's list starts in 1900). */
export function yearOptions(now = new Date(), firstYear = YEAR_LIST_FIRST_YEAR): string[] {
  const current = now.getFullYear();
  return Array.from({ length: Math.max(0, current - firstYear + 1) }, (_, i) =>
    String(current - i),
  );
}

/** A typed year before the list: its four-digit form when within the range, else null. */
export function typedYear(text: string, earliest: number, before: number): string | null {
  if (!/^\d{1,4}$/.test(text.trim())) return null;
  const year = Number(text);
  return year >= earliest && year < before ? String(year).padStart(4, '0') : null;
}

export function partsFromDate(date: string | null | undefined): BirthDateParts {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? '');
  if (!match) return EMPTY_BIRTH_DATE;
  return { year: match[1]!, month: match[2]!, day: match[3]! };
}

export const isComplete = (parts: BirthDateParts) =>
  Boolean(parts.day && parts.month && parts.year);
export const isEmpty = (parts: BirthDateParts) => !parts.day && !parts.month && !parts.year;

/** 31 February and friends: all three chosen, but no such day. */
export function isImpossibleDate(parts: BirthDateParts): boolean {
  if (!isComplete(parts)) return false;
  const date = new Date(0);
  // setUTCFullYear: Date.UTC reads the years 0–99 as 1900–1999.
  date.setUTCFullYear(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
  return date.getUTCDate() !== Number(parts.day);
}

/** YYYY-MM-DD when all three parts are chosen and form a real day; otherwise null. */
export function composeBirthDate(parts: BirthDateParts): string | null {
  if (!isComplete(parts) || isImpossibleDate(parts)) return null;
  return `${parts.year}-${parts.month}-${parts.day}`;
}
