/**
 * The compatibility score's scale (Ciro Discepolo's relationship score): points for the
 * strongest ties between two charts (Sun, Moon, Ascendant, Venus–Mars, and Sun signs of one
 * quality). The engine labels a score with these bands; the web app draws the same scale.
 */
export const COMPATIBILITY_SCORE_MAX = 44;

/** Each band from its lowest score; a band runs to the next one's `from` less one. */
export const RELATIONSHIP_BANDS = [
  { label: 'Minimal', from: 0 },
  { label: 'Medium', from: 5 },
  { label: 'Important', from: 10 },
  { label: 'Very Important', from: 15 },
  { label: 'Exceptional', from: 20 },
  { label: 'Rare Exceptional', from: 30 },
] as const;

export type RelationshipLabel = (typeof RELATIONSHIP_BANDS)[number]['label'];

/** The index of the band a score falls in (a negative score counts as 0). */
export const relationshipBandIndex = (score: number): number =>
  Math.max(
    0,
    RELATIONSHIP_BANDS.findLastIndex((band) => score >= band.from),
  );
