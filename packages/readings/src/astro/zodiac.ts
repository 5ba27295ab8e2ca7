/** Tropical zodiac: twelve signs of 30° counted from the March equinox point (0° Aries). */

export type Element = 'Fire' | 'Earth' | 'Air' | 'Water';
export type Quality = 'Cardinal' | 'Fixed' | 'Mutable';

export interface Sign {
  readonly num: number;
  readonly name: string;
  readonly abbreviation: string;
  readonly element: Element;
  readonly quality: Quality;
  readonly ruler: string;
  readonly glyph: string;
}

export const SIGNS: readonly Sign[] = [
  {
    num: 0,
    name: 'Aries',
    abbreviation: 'Ari',
    element: 'Fire',
    quality: 'Cardinal',
    ruler: 'Mars',
    glyph: '♈',
  },
  {
    num: 1,
    name: 'Taurus',
    abbreviation: 'Tau',
    element: 'Earth',
    quality: 'Fixed',
    ruler: 'Venus',
    glyph: '♉',
  },
  {
    num: 2,
    name: 'Gemini',
    abbreviation: 'Gem',
    element: 'Air',
    quality: 'Mutable',
    ruler: 'Mercury',
    glyph: '♊',
  },
  {
    num: 3,
    name: 'Cancer',
    abbreviation: 'Can',
    element: 'Water',
    quality: 'Cardinal',
    ruler: 'Moon',
    glyph: '♋',
  },
  {
    num: 4,
    name: 'Leo',
    abbreviation: 'Leo',
    element: 'Fire',
    quality: 'Fixed',
    ruler: 'Sun',
    glyph: '♌',
  },
  {
    num: 5,
    name: 'Virgo',
    abbreviation: 'Vir',
    element: 'Earth',
    quality: 'Mutable',
    ruler: 'Mercury',
    glyph: '♍',
  },
  {
    num: 6,
    name: 'Libra',
    abbreviation: 'Lib',
    element: 'Air',
    quality: 'Cardinal',
    ruler: 'Venus',
    glyph: '♎',
  },
  {
    num: 7,
    name: 'Scorpio',
    abbreviation: 'Sco',
    element: 'Water',
    quality: 'Fixed',
    ruler: 'Mars',
    glyph: '♏',
  },
  {
    num: 8,
    name: 'Sagittarius',
    abbreviation: 'Sag',
    element: 'Fire',
    quality: 'Mutable',
    ruler: 'Jupiter',
    glyph: '♐',
  },
  {
    num: 9,
    name: 'Capricorn',
    abbreviation: 'Cap',
    element: 'Earth',
    quality: 'Cardinal',
    ruler: 'Saturn',
    glyph: '♑',
  },
  {
    num: 10,
    name: 'Aquarius',
    abbreviation: 'Aqu',
    element: 'Air',
    quality: 'Fixed',
    ruler: 'Saturn',
    glyph: '♒',
  },
  {
    num: 11,
    name: 'Pisces',
    abbreviation: 'Pis',
    element: 'Water',
    quality: 'Mutable',
    ruler: 'Jupiter',
    glyph: '♓',
  },
];

/** Longitude normalised to [0, 360). */
export function normalizeDegrees(longitude: number): number {
  const d = longitude % 360;
  return d < 0 ? d + 360 : d;
}

export function signOf(longitude: number): Sign {
  return SIGNS[Math.floor(normalizeDegrees(longitude) / 30) % 12]!;
}

/** "23°30′ Pisces": the one formatter of positions, shared with the web app. */
export { formatZodiacal } from '@astra/contracts';

export const POINT_KEYS = [
  'sun',
  'moon',
  'mercury',
  'venus',
  'mars',
  'jupiter',
  'saturn',
  'uranus',
  'neptune',
  'pluto',
  'ascendant',
  'medium_coeli',
  'chiron',
  'mean_lilith',
  'mean_node',
  'true_node',
  'mean_south_node',
  'true_south_node',
] as const;
export type PointKey = (typeof POINT_KEYS)[number];
/** The points a birth time fixes: a chart without a known time has neither (nor houses). */
export const ANGLE_KEYS = ['ascendant', 'medium_coeli'] as const;
export type AngleKey = (typeof ANGLE_KEYS)[number];
export type BodyKey = Exclude<PointKey, AngleKey>;

export const POINT_NAMES: Readonly<Record<PointKey, string>> = {
  sun: 'Sun',
  moon: 'Moon',
  mercury: 'Mercury',
  venus: 'Venus',
  mars: 'Mars',
  jupiter: 'Jupiter',
  saturn: 'Saturn',
  uranus: 'Uranus',
  neptune: 'Neptune',
  pluto: 'Pluto',
  ascendant: 'Ascendant',
  medium_coeli: 'Medium Coeli',
  chiron: 'Chiron',
  mean_lilith: 'Mean Lilith',
  mean_node: 'Mean Node',
  true_node: 'True Node',
  mean_south_node: 'Mean South Node',
  true_south_node: 'True South Node',
};

export const POINT_GLYPHS: Readonly<Record<PointKey, string>> = {
  sun: '☉',
  moon: '☽',
  mercury: '☿',
  venus: '♀',
  mars: '♂',
  jupiter: '♃',
  saturn: '♄',
  uranus: '♅',
  neptune: '♆',
  pluto: '♇',
  ascendant: 'AC',
  medium_coeli: 'MC',
  chiron: '⚷',
  mean_lilith: '⚸',
  mean_node: '☊',
  true_node: '☊',
  mean_south_node: '☋',
  true_south_node: '☋',
};

export const HOUSE_KEYS = [
  'first_house',
  'second_house',
  'third_house',
  'fourth_house',
  'fifth_house',
  'sixth_house',
  'seventh_house',
  'eighth_house',
  'ninth_house',
  'tenth_house',
  'eleventh_house',
  'twelfth_house',
] as const;
export type HouseKey = (typeof HOUSE_KEYS)[number];

export const HOUSE_NAMES: readonly string[] = [
  'First House',
  'Second House',
  'Third House',
  'Fourth House',
  'Fifth House',
  'Sixth House',
  'Seventh House',
  'Eighth House',
  'Ninth House',
  'Tenth House',
  'Eleventh House',
  'Twelfth House',
];

/** Ordinal for prose: 1 → "1st". */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}
