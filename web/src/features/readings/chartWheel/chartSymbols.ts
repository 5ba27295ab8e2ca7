/** Glyphs, names and colours of the wheel (the same point names as packages/readings). */

/** U+FE0E asks for the text glyph, not an emoji, where fonts have both (♈ … ♓, ♀, ♂). */
const TEXT_STYLE = '\uFE0E';
const asText = (glyph: string) => (glyph.length === 1 ? glyph + TEXT_STYLE : glyph);

export const SIGNS = [
  ['Aries', '♈', 'fire'],
  ['Taurus', '♉', 'earth'],
  ['Gemini', '♊', 'air'],
  ['Cancer', '♋', 'water'],
  ['Leo', '♌', 'fire'],
  ['Virgo', '♍', 'earth'],
  ['Libra', '♎', 'air'],
  ['Scorpio', '♏', 'water'],
  ['Sagittarius', '♐', 'fire'],
  ['Capricorn', '♑', 'earth'],
  ['Aquarius', '♒', 'air'],
  ['Pisces', '♓', 'water'],
].map(([name, glyph, element]) => ({
  name: name!,
  glyph: asText(glyph!),
  element: element as Element,
}));

export type Element = 'fire' | 'earth' | 'air' | 'water';

/** A colour of the wheel: a semantic token of the theme (`chart-*`), so it follows the mode. */
const chartColor = (name: Element | AspectType) => `var(--chakra-colors-chart-${name})`;

/** Element tints of the sign ring, drawn at low opacity so both colour modes stay readable. */
export const ELEMENT_COLORS: Record<Element, string> = {
  fire: chartColor('fire'),
  earth: chartColor('earth'),
  air: chartColor('air'),
  water: chartColor('water'),
};

/** The points the wheel draws, in the order the table lists them. */
export const WHEEL_POINTS = [
  ['sun', 'Sun', '☉'],
  ['moon', 'Moon', '☽'],
  ['mercury', 'Mercury', '☿'],
  ['venus', 'Venus', '♀'],
  ['mars', 'Mars', '♂'],
  ['jupiter', 'Jupiter', '♃'],
  ['saturn', 'Saturn', '♄'],
  ['uranus', 'Uranus', '♅'],
  ['neptune', 'Neptune', '♆'],
  ['pluto', 'Pluto', '♇'],
  ['ascendant', 'Ascendant', 'AC'],
  ['medium_coeli', 'Midheaven', 'MC'],
  ['chiron', 'Chiron', '⚷'],
  ['mean_lilith', 'Lilith', '⚸'],
  ['true_node', 'North Node', '☊'],
  ['true_south_node', 'South Node', '☋'],
].map(([key, name, glyph]) => ({ key: key!, name: name!, glyph: asText(glyph!) }));

export const RETROGRADE_MARK = '℞';

export type AspectType = 'conjunction' | 'opposition' | 'trine' | 'sextile' | 'square';

/** Aspect lines: warm for the tense aspects (dashed too), cool for the easy ones. */
export const ASPECT_STYLES: Record<
  AspectType,
  { label: string; symbol: string; color: string; dash?: string }
> = {
  conjunction: { label: 'Conjunction', symbol: '☌', color: chartColor('conjunction') },
  opposition: { label: 'Opposition', symbol: '☍', color: chartColor('opposition'), dash: '8 5' },
  square: { label: 'Square', symbol: '□', color: chartColor('square'), dash: '8 5' },
  trine: { label: 'Trine', symbol: '△', color: chartColor('trine') },
  sextile: { label: 'Sextile', symbol: '⚹', color: chartColor('sextile') },
};

export const isAspectType = (value: unknown): value is AspectType =>
  typeof value === 'string' && value in ASPECT_STYLES;

export const HOUSE_ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
];
