/** Spreads and draws: cards without replacement, each reversed with probability ½. */
import { DECK, meaningOf, type Orientation, type TarotCard } from './deck.ts';
import { cryptoRandom, type RandomSource } from './random.ts';

export interface SpreadPosition {
  /** 1-based place in the spread. */
  number: number;
  key: string;
  /** The position's traditional name. */
  name: string;
  /** What the position asks of the card. */
  description: string;
}

export const THREE_CARD_POSITIONS: readonly SpreadPosition[] = [
  {
    number: 1,
    key: 'past',
    name: 'Past',
    description: 'what has led up to the question and still colours it',
  },
  {
    number: 2,
    key: 'present',
    name: 'Present',
    description: 'where things stand now and the energy around you',
  },
  {
    number: 3,
    key: 'future',
    name: 'Future',
    description: 'where things are heading if the present course holds',
  },
];

export const CELTIC_CROSS_POSITIONS: readonly SpreadPosition[] = [
  {
    number: 1,
    key: 'present',
    name: 'The Present / Significator',
    description: 'the heart of the matter and the person asking',
  },
  {
    number: 2,
    key: 'challenge',
    name: 'The Challenge (crossing)',
    description: 'what crosses you: the obstacle or tension to work with',
  },
  {
    number: 3,
    key: 'foundation',
    name: 'The Foundation (below / distant past)',
    description: 'the root of the situation, often something from long ago',
  },
  {
    number: 4,
    key: 'recent_past',
    name: 'The Recent Past (behind)',
    description: 'what is just passing out of your life',
  },
  {
    number: 5,
    key: 'crown',
    name: 'The Crown / Possible Outcome (above)',
    description: 'what you aim for, consciously, and the best that could come of it',
  },
  {
    number: 6,
    key: 'near_future',
    name: 'The Near Future (before)',
    description: 'what is coming into your life next',
  },
  {
    number: 7,
    key: 'self',
    name: 'Yourself / Your Attitude',
    description: 'how you stand in the matter and how you see yourself in it',
  },
  {
    number: 8,
    key: 'environment',
    name: 'External Influences / Environment',
    description: 'the people and circumstances around you',
  },
  {
    number: 9,
    key: 'hopes_fears',
    name: 'Hopes and Fears',
    description: 'what you hope for and fear, often the same thing seen from two sides',
  },
  {
    number: 10,
    key: 'outcome',
    name: 'The Outcome',
    description: 'where it is all heading, taking everything above into account',
  },
];

export interface DrawnCard {
  card: TarotCard;
  orientation: Orientation;
}

export interface PlacedCard extends DrawnCard {
  position: SpreadPosition;
}

/** `count` distinct cards (partial Fisher–Yates over the deck), each reversed with p = ½. */
export function drawCards(count: number, random: RandomSource = cryptoRandom): DrawnCard[] {
  if (!Number.isInteger(count) || count < 0 || count > DECK.length) {
    throw new RangeError(`Cannot draw ${count} cards from a deck of ${DECK.length}`);
  }
  const order = DECK.map((_, i) => i);
  const drawn: DrawnCard[] = [];
  for (let i = 0; i < count; i++) {
    const j = i + random.int(order.length - i);
    const picked = order[j]!;
    order[j] = order[i]!;
    order[i] = picked;
    drawn.push({ card: DECK[picked]!, orientation: random.int(2) === 1 ? 'reversed' : 'upright' });
  }
  return drawn;
}

function lay(positions: readonly SpreadPosition[], random: RandomSource): PlacedCard[] {
  return drawCards(positions.length, random).map((d, i) => ({ ...d, position: positions[i]! }));
}

/** Past, present, future. */
export function drawThreeCardSpread(random: RandomSource = cryptoRandom): PlacedCard[] {
  return lay(THREE_CARD_POSITIONS, random);
}

/** The ten positions of the Celtic Cross, in laying order. */
export function drawCelticCross(random: RandomSource = cryptoRandom): PlacedCard[] {
  return lay(CELTIC_CROSS_POSITIONS, random);
}

/** The meaning of a placed card in its drawn orientation. */
export function placedMeaning(placed: DrawnCard): string {
  return meaningOf(placed.card, placed.orientation).text;
}
