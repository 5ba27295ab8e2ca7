/**
 * Pythagorean numerology, one convention throughout:
 * - reduce: add the digits until one digit remains, stopping at the master numbers 11, 22, 33;
 * - life path: month, day and year each reduced on their own, summed, reduced again;
 * - destiny (expression): the letters of each name part (A J S = 1 … I R = 9) summed and the
 *   part reduced on its own, the parts summed, reduced again;
 * - soul urge (heart's desire): the same over the vowels A E I O U only (Y is a consonant);
 * - letters are folded first (é → e, ß → ss, æ → ae); anything that is not a letter A–Z is
 *   ignored; name parts are separated by spaces (first and last names are parts of their own,
 *   a hyphenated name such as Jean-Luc is one part).
 */
import { parseBirthDate } from '../astro/natalChart.ts';
import { ReadingInputError } from '../errors.ts';

export const MASTER_NUMBERS: ReadonlySet<number> = new Set([11, 22, 33]);

function digitSum(n: number): number {
  let sum = 0;
  for (let m = Math.abs(n); m > 0; m = Math.floor(m / 10)) sum += m % 10;
  return sum;
}

/** Add digits until a single digit or a master number (11, 22, 33) remains. */
export function reduceNumber(n: number): number {
  let value = Math.abs(Math.trunc(n));
  while (value > 9 && !MASTER_NUMBERS.has(value)) value = digitSum(value);
  return value;
}

/** Pythagorean letter value: A J S = 1, B K T = 2, … I R = 9; 0 for anything else. */
export function letterValue(letter: string): number {
  const code = letter.toUpperCase().charCodeAt(0) - 65;
  if (code < 0 || code > 25 || letter.length !== 1) return 0;
  return (code % 9) + 1;
}

const VOWELS = new Set(['A', 'E', 'I', 'O', 'U']);

/** Upper-case A–Z letters of a name part after folding accents and special letters. */
export function foldLetters(text: string): string {
  return text
    .replace(/ß/g, 'ss')
    .replace(/ẞ/g, 'SS')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[œŒ]/g, 'oe')
    .replace(/[øØ]/g, 'o')
    .replace(/[đĐðÐ]/g, 'd')
    .replace(/[łŁ]/g, 'l')
    .replace(/ı/g, 'i')
    .replace(/[þÞ]/g, 'th')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
}

export interface NamePartBreakdown {
  part: string;
  letters: string;
  /** Sum of the letter values counted (all letters, or vowels for the soul urge). */
  sum: number;
  reduced: number;
}

export interface NameNumber {
  value: number;
  parts: NamePartBreakdown[];
  /** Sum of the reduced parts before the final reduction. */
  total: number;
}

function nameParts(names: readonly string[]): string[] {
  return names
    .flatMap((n) => n.split(/\s+/))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function nameNumber(names: readonly string[], vowelsOnly: boolean): NameNumber {
  const parts: NamePartBreakdown[] = [];
  for (const part of nameParts(names)) {
    const letters = foldLetters(part);
    if (!letters) continue;
    let sum = 0;
    for (const letter of letters) {
      if (vowelsOnly && !VOWELS.has(letter)) continue;
      sum += letterValue(letter);
    }
    parts.push({ part, letters, sum, reduced: reduceNumber(sum) });
  }
  const total = parts.reduce((acc, p) => acc + p.reduced, 0);
  return { value: reduceNumber(total), parts, total };
}

/** Destiny (expression) number of a full name given as its parts (first, middle, last...). */
export function destinyNumber(...names: string[]): NameNumber {
  return nameNumber(names, false);
}

/** Soul urge (heart's desire) number: vowels A E I O U only. */
export function soulUrgeNumber(...names: string[]): NameNumber {
  return nameNumber(names, true);
}

export interface LifePathBreakdown {
  value: number;
  month: number;
  day: number;
  year: number;
  /** month + day + year (each reduced) before the final reduction. */
  total: number;
}

/** Life path from a YYYY-MM-DD date: month, day and year reduced separately, summed, reduced. */
export function lifePathNumber(birthDate: string): LifePathBreakdown {
  const { year, month, day } = parseBirthDate(birthDate);
  const m = reduceNumber(month);
  const d = reduceNumber(day);
  const y = reduceNumber(year);
  const total = m + d + y;
  return { value: reduceNumber(total), month: m, day: d, year: y, total };
}

export interface NumerologyInput {
  firstName: string;
  lastName: string;
  birthDate: string;
}

export interface NumerologyFacts {
  firstName: string;
  lastName: string;
  birthDate: string;
  lifePath: LifePathBreakdown;
  destiny: NameNumber;
  soulUrge: NameNumber;
}

/** The three numbers with their working. A name with no Latin letters is an input error. */
export function computeNumerology(input: NumerologyInput): NumerologyFacts {
  const lifePath = lifePathNumber(input.birthDate);
  const destiny = destinyNumber(input.firstName, input.lastName);
  if (destiny.parts.length === 0) {
    throw new ReadingInputError(
      'name_without_letters',
      'The name must contain letters of the Latin alphabet for a numerology reading',
      'firstName',
    );
  }
  return {
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    birthDate: input.birthDate,
    lifePath,
    destiny,
    soulUrge: soulUrgeNumber(input.firstName, input.lastName),
  };
}
