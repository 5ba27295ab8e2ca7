import { type Fields, fields, text } from '../result/resultFields';

export type Orientation = 'upright' | 'reversed';

export interface TarotCardView {
  position: string;
  name: string;
  orientation: Orientation;
  meaning?: string;
  cardId?: string;
  keywords?: string[];
}

/** Three-card reading as the result page shows it. */
export interface TarotReadingView {
  firstName?: string;
  question?: string;
  readingText: string;
  cards: TarotCardView[];
}

/** 'upright', or any reversed-type value ('reversed', 'Reversed', 'reverse'). */
export const orientationOf = (value: unknown): Orientation =>
  typeof value === 'string' && /revers/i.test(value) ? 'reversed' : 'upright';

const POSITIONS = [
  ['past', 'Past'],
  ['present', 'Present'],
  ['future', 'Future'],
] as const;

/** A card list from `cards` (with meanings) or the flat past/present/future fields. */
function threeCards(source: Fields): TarotCardView[] {
  const detailed = Array.isArray(source.cards) ? source.cards.map(fields) : [];
  return POSITIONS.flatMap(([key, position], index) => {
    const name = text(source[`${key}CardName`]) ?? text(detailed[index]?.name);
    if (!name) return [];
    const card = detailed.find((c) => text(c.name) === name) ?? {};
    return [
      {
        position,
        name,
        orientation: orientationOf(source[`${key}Orientation`] ?? card.orientation),
        meaning: text(card.meaning),
        cardId: text(card.cardId),
        keywords: Array.isArray(card.keywords)
          ? card.keywords.filter((k) => typeof k === 'string')
          : undefined,
      },
    ];
  });
}

export function tarotFromResult(
  result: Fields,
  firstName?: string | null,
  question?: string | null,
): TarotReadingView | null {
  const readingText = text(result.readingText);
  if (readingText === undefined) return null;
  return {
    firstName: text(result.firstName) ?? firstName ?? undefined,
    question: text(result.question) ?? question ?? undefined,
    readingText,
    cards: threeCards(result),
  };
}

/** Spec §2's older link: everything in the query (readingText URL-encoded). */
export function tarotFromQuery(params: URLSearchParams): TarotReadingView | null {
  const readingText = params.get('readingText');
  if (!readingText) return null;
  const source: Fields = Object.fromEntries(params.entries());
  return {
    firstName: params.get('firstName') ?? undefined,
    question: params.get('question') ?? undefined,
    readingText,
    cards: threeCards(source),
  };
}
