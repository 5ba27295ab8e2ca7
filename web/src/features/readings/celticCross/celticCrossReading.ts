import { type Fields, fields, text } from '../result/resultFields';
import { orientationOf, type TarotCardView } from '../tarot/tarotReading';

/** The spread's ten positions in laying order, with their traditional names (docs/readings.md). */
export const CELTIC_CROSS_POSITIONS = [
  'The Present / Significator',
  'The Challenge (crossing)',
  'The Foundation (below / distant past)',
  'The Recent Past (behind)',
  'The Crown / Possible Outcome (above)',
  'The Near Future (before)',
  'Yourself / Your Attitude',
  'External Influences / Environment',
  'Hopes and Fears',
  'The Outcome',
] as const;

export interface CelticCrossCard extends TarotCardView {
  /** 1-based place in the spread. */
  number: number;
}

export interface CelticCrossView {
  firstName?: string;
  question?: string;
  text: string;
  cards: CelticCrossCard[];
}

/** `cards: [{position, name, orientation, meaning}]`, or the spec's flat card{n}_… fields. */
function spreadCards(source: Fields): CelticCrossCard[] {
  const listed = Array.isArray(source.cards) ? source.cards.map(fields) : null;
  const raw: Fields[] =
    listed ??
    Array.from({ length: 10 }, (_, i) => ({
      position: source[`card${i + 1}_position`],
      name: source[`card${i + 1}_name`],
      orientation: source[`card${i + 1}_orientation`],
      meaning: source[`card${i + 1}_meaning`],
    }));
  return raw.slice(0, 10).flatMap((card, index) => {
    const name = text(card.name);
    if (!name) return [];
    const number = typeof card.number === 'number' ? card.number : index + 1;
    return [
      {
        number,
        position: text(card.position) ?? CELTIC_CROSS_POSITIONS[number - 1] ?? `Card ${number}`,
        name,
        orientation: orientationOf(card.orientation),
        meaning: text(card.meaning),
        cardId: text(card.cardId),
      },
    ];
  });
}

export function celticCrossFromResult(
  result: Fields,
  firstName?: string | null,
  question?: string | null,
): CelticCrossView | null {
  const body = text(result.text) ?? text(result.readingText);
  if (body === undefined) return null;
  return {
    firstName: text(result.firstName) ?? firstName ?? undefined,
    question: text(result.question) ?? question ?? undefined,
    text: body,
    cards: spreadCards(result),
  };
}

/** Spec §2's older link: the reading as URL-encoded JSON in `data`, names in the query. */
export function celticCrossFromQuery(
  data: Fields | null,
  params: URLSearchParams,
): CelticCrossView | null {
  if (!data) return null;
  return celticCrossFromResult(data, params.get('firstName'), params.get('question'));
}
