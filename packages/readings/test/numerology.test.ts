import { describe, expect, it } from 'vitest';
import {
  computeNumerology,
  destinyNumber,
  foldLetters,
  letterValue,
  lifePathNumber,
  NUMBER_MEANINGS,
  ReadingInputError,
  reduceNumber,
  soulUrgeNumber,
} from '../src/index.ts';

describe('Reduction and letter values', () => {
  it.each([
    [7, 7],
    [10, 1],
    [11, 11],
    [22, 22],
    [33, 33],
    [44, 8],
    [29, 11], // 2 + 9 = 11, kept
    [1879, 7], // 1 + 8 + 7 + 9 = 25 → 7
    [1999, 1], // 28 → 10 → 1
    [2009, 11],
  ])('reduce(%i) = %i', (n, expected) => {
    expect(reduceNumber(n)).toBe(expected);
  });

  it('A J S = 1 … I R = 9', () => {
    expect(['A', 'J', 'S', 'B', 'K', 'T', 'I', 'R', 'Z'].map(letterValue)).toEqual([
      1, 1, 1, 2, 2, 2, 9, 9, 8,
    ]);
    expect(letterValue('-')).toBe(0);
  });

  it('folds accents and special letters', () => {
    expect(foldLetters('Zoë Müller-Straße')).toBe('ZOEMULLERSTRASSE');
    expect(foldLetters('Søren Ærø')).toBe('SORENAERO');
    expect(foldLetters("O'Brien")).toBe('OBRIEN');
  });
});

describe('Life path', () => {
  it('Einstein 1879-03-14: 3 + (1+4=5) + (1+8+7+9=25→7) = 15 → 6', () => {
    expect(lifePathNumber('1879-03-14')).toEqual({
      value: 6,
      month: 3,
      day: 5,
      year: 7,
      total: 15,
    });
  });

  it('master numbers are kept at each step: 1987-11-29 → 11 + 11 + 7 = 29 → 11', () => {
    // month 11 kept, day 29 → 11 kept, year 1987 → 25 → 7; 29 → 11 kept.
    expect(lifePathNumber('1987-11-29')).toMatchObject({ value: 11, month: 11, day: 11, year: 7 });
  });

  it('1989-09-04 → 9 + 4 + (27→9) = 22, a master number', () => {
    expect(lifePathNumber('1989-09-04').value).toBe(22);
  });

  it('2000-01-01 → 1 + 1 + 2 = 4', () => {
    expect(lifePathNumber('2000-01-01').value).toBe(4);
  });
});

describe('Destiny and soul urge', () => {
  it('Albert Einstein: destiny 9, soul urge 7', () => {
    // ALBERT = 1+3+2+5+9+2 = 22 (kept); EINSTEIN = 5+9+5+1+2+5+9+5 = 41 → 5; 22 + 5 = 27 → 9.
    const destiny = destinyNumber('Albert', 'Einstein');
    expect(destiny.parts.map((p) => [p.sum, p.reduced])).toEqual([
      [22, 22],
      [41, 5],
    ]);
    expect(destiny.value).toBe(9);
    // Vowels: A E = 1+5 = 6; E I E I = 5+9+5+9 = 28 → 1; 6 + 1 = 7.
    expect(soulUrgeNumber('Albert', 'Einstein').value).toBe(7);
  });

  it('Y is a consonant: Yvonne’s vowels are O and E (6 + 5 = 11, kept)', () => {
    expect(soulUrgeNumber('Yvonne').value).toBe(11);
    // Y7 V4 O6 N5 N5 E5 = 32 → 5
    expect(destinyNumber('Yvonne').value).toBe(5);
  });

  it('accents and case do not change the numbers', () => {
    expect(destinyNumber('José', 'Müller').value).toBe(destinyNumber('JOSE', 'muller').value);
    expect(destinyNumber('Strauß').parts[0]!.letters).toBe('STRAUSS');
  });

  it('each space-separated part is reduced on its own; a hyphenated name is one part', () => {
    // JEANLUC = 1+5+1+5+3+3+3 = 21 → 3; PICARD = 7+9+3+1+9+4 = 33 (kept); 3 + 33 = 36 → 9
    const d = destinyNumber('Jean-Luc', 'Picard');
    expect(d.parts.map((p) => p.reduced)).toEqual([3, 33]);
    expect(d.value).toBe(9);
    expect(destinyNumber('Mary Ann', 'Smith').parts).toHaveLength(3);
  });

  it('a name without Latin letters is an input error', () => {
    expect(() =>
      computeNumerology({ firstName: '李', lastName: '小龍', birthDate: '1940-11-27' }),
    ).toThrow(ReadingInputError);
  });

  it('every number that can come out has a meaning', () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 22, 33]) {
      const m = NUMBER_MEANINGS[n]!;
      for (const text of [m.essence, m.lifePath, m.destiny, m.soulUrge, m.shadow]) {
        expect(text.length).toBeGreaterThan(20);
      }
    }
  });
});
