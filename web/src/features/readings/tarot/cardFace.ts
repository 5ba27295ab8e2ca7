import { TAROT_RANKS, TAROT_SUITS, type TarotSuit } from '@astra/contracts';

/** What a drawn card shows on its face: its number or rank, and its suit (docs/readings.md). */
export type Suit = 'major' | TarotSuit;

export interface CardFace {
  /** Roman numeral for the major arcana (0 for The Fool), rank mark for the minor ones. */
  mark: string;
  suit: Suit;
}

const MAJOR_ARCANA = [
  'The Fool',
  'The Magician',
  'The High Priestess',
  'The Empress',
  'The Emperor',
  'The Hierophant',
  'The Lovers',
  'The Chariot',
  'Strength',
  'The Hermit',
  'Wheel of Fortune',
  'Justice',
  'The Hanged Man',
  'Death',
  'Temperance',
  'The Devil',
  'The Tower',
  'The Star',
  'The Moon',
  'The Sun',
  'Judgement',
  'The World',
];

const ROMAN = [
  '0',
  'I',
  'II',
  'III',
  'IV',
  'V',
  'VI',
  'VII',
  'VIII',
  'IX',
  'X',
  'XI',
  'XII',
  'XIII',
  'XIV',
  'XV',
  'XVI',
  'XVII',
  'XVIII',
  'XIX',
  'XX',
  'XXI',
];

/** TAROT_RANKS as a card face shows them. */
const RANK_MARKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'P', 'Kn', 'Q', 'K'];

export const SUIT_NAMES: Record<Suit, string> = {
  major: 'Major Arcana',
  wands: 'Wands',
  cups: 'Cups',
  swords: 'Swords',
  pentacles: 'Pentacles',
};

/** From the card id ('major-07', 'cups-12') when the server sent it, else from the name. */
export function cardFace(name: string, cardId?: string): CardFace {
  const byId = /^(major|wands|cups|swords|pentacles)-(\d{2})$/.exec(cardId ?? '');
  if (byId) {
    const suit = byId[1] as Suit;
    const n = Number(byId[2]);
    if (suit === 'major') return { suit, mark: ROMAN[n] ?? '' };
    return { suit, mark: RANK_MARKS[n - 1] ?? '' };
  }
  const major = MAJOR_ARCANA.findIndex((card) => card.toLowerCase() === name.trim().toLowerCase());
  if (major >= 0) return { suit: 'major', mark: ROMAN[major]! };
  const minor = /^(\w+) of (\w+)$/i.exec(name.trim());
  if (minor) {
    const rank = TAROT_RANKS.findIndex((r) => r.toLowerCase() === minor[1]!.toLowerCase());
    const suit = TAROT_SUITS.find((s) => s === minor[2]!.toLowerCase());
    if (suit) return { suit, mark: RANK_MARKS[rank] ?? '' };
  }
  return { suit: 'major', mark: '' };
}
