/** Offline tarot readings: each card in its position and orientation, read against the question. */
import type { TarotFacts } from '../../facts.ts';
import { meaningOf, SUITS, type Suit } from '../../tarot/deck.ts';
import type { PlacedCard } from '../../tarot/spreads.ts';
import { capitalize, listJoin, numberWord, paragraphs, quoted } from '../format.ts';

export type QuestionTheme =
  | 'love'
  | 'work'
  | 'money'
  | 'health'
  | 'family'
  | 'decision'
  | 'general';

const THEME_WORDS: ReadonlyArray<readonly [QuestionTheme, RegExp]> = [
  [
    'love',
    /\b(love|lover|relationship|partner|boyfriend|girlfriend|husband|wife|marri\w*|dating|date|crush|ex|romance|romantic|soul ?mate|heart|breakup|break up)\b/i,
  ],
  [
    'work',
    /\b(job|work|career|boss|business|promotion|interview|project|colleague|company|study|studies|exam|university|school)\b/i,
  ],
  [
    'money',
    /\b(money|finance\w*|debt|salary|invest\w*|income|loan|rent|savings?|afford|pay|paid|wealth)\b/i,
  ],
  [
    'health',
    /\b(health|healthy|ill|illness|sick|body|heal\w*|recover\w*|energy|sleep|anxiety|stress)\b/i,
  ],
  [
    'family',
    /\b(family|mother|mum|mom|father|dad|son|daughter|child|children|kids?|parents?|sister|brother|home)\b/i,
  ],
  ['decision', /\b(should|decide|decision|choice|choose|option|whether)\b/i],
];

/** The question's main subject, by keyword; 'general' when nothing matches. */
export function questionTheme(question: string): QuestionTheme {
  for (const [theme, pattern] of THEME_WORDS) if (pattern.test(question)) return theme;
  return 'general';
}

const THEME_PHRASE: Readonly<Record<QuestionTheme, string>> = {
  love: 'your love life',
  work: 'your work and studies',
  money: 'your finances',
  health: 'your health and energy',
  family: 'your family and home',
  decision: 'the choice in front of you',
  general: 'the situation you asked about',
};

/** How each suit speaks to each kind of question. */
const SUIT_LENS: Readonly<Record<QuestionTheme, Readonly<Record<Suit, string>>>> = {
  love: {
    wands: 'the attraction and passion between you',
    cups: 'the emotional bond itself',
    swords: 'the way you talk, argue and think about the relationship',
    pentacles: 'commitment, shared life and practical security',
  },
  work: {
    wands: 'your ambition and the projects that excite you',
    cups: 'how you feel about the work and the people in it',
    swords: 'decisions, negotiations and the politics of the workplace',
    pentacles: 'pay, skills and the concrete results of your effort',
  },
  money: {
    wands: 'the enterprise and risk-taking behind your income',
    cups: 'your emotional relationship with money',
    swords: 'the decisions and calculations you face',
    pentacles: 'the money itself: income, savings and material security',
  },
  health: {
    wands: 'your energy and vitality',
    cups: 'your emotional wellbeing',
    swords: 'stress, worry and the mind’s effect on the body',
    pentacles: 'the body, routines and physical care',
  },
  family: {
    wands: 'the energy and plans you share at home',
    cups: 'the love and feelings that bind your family',
    swords: 'the words and disagreements between you',
    pentacles: 'the home itself, money and practical support',
  },
  decision: {
    wands: 'what your enthusiasm is telling you',
    cups: 'what your heart wants',
    swords: 'the reasoning and the hard facts',
    pentacles: 'the practical consequences',
  },
  general: {
    wands: 'your drive and what inspires you',
    cups: 'your feelings and relationships',
    swords: 'your thoughts, choices and conflicts',
    pentacles: 'practical matters of work, money and health',
  },
};

function lens(placed: PlacedCard, theme: QuestionTheme): string {
  const { card } = placed;
  if (!card.suit) {
    return `${card.name} is a major arcana card: it points past the details of ${THEME_PHRASE[theme]} to a larger lesson you are living through.`;
  }
  return `As a card of ${SUITS[card.suit].name}, ${card.name} speaks about ${SUIT_LENS[theme][card.suit]}.`;
}

function cardTitle(placed: PlacedCard): string {
  return `${placed.card.name}${placed.orientation === 'reversed' ? ' (reversed)' : ' (upright)'}`;
}

/**
 * One card in its position: meaning, position, lens of the question. `position` names the
 * position in its bold title line, for a section that reads several cards under one heading; a
 * section of its own ('## The Past') has named the position already.
 */
export function cardParagraph(placed: PlacedCard, theme: QuestionTheme, position = true): string {
  const meaning = meaningOf(placed.card, placed.orientation);
  return paragraphs(
    position ? `**${placed.position.name}: ${cardTitle(placed)}**` : `**${cardTitle(placed)}**`,
    `${capitalize(meaning.keywords.join(', '))}. ${meaning.text} In this position, which shows ${placed.position.description}, ${placed.card.name} ${placed.orientation === 'reversed' ? 'appears reversed, so its energy is blocked, internal or arriving late' : 'appears upright, so its energy flows openly'}. ${lens(placed, theme)}`,
  );
}

function overview(facts: TarotFacts, theme: QuestionTheme): string {
  const majors = facts.cards.filter((c) => c.card.arcana === 'major');
  const reversed = facts.cards.filter((c) => c.orientation === 'reversed');
  const suits = new Map<Suit, number>();
  for (const c of facts.cards)
    if (c.card.suit) suits.set(c.card.suit, (suits.get(c.card.suit) ?? 0) + 1);
  let topSuit: Suit | null = null;
  for (const [suit, n] of suits) if (!topSuit || n > (suits.get(topSuit) ?? 0)) topSuit = suit;
  const total = facts.cards.length;
  const sentences: string[] = [];
  sentences.push(
    majors.length === 0
      ? 'No major arcana appear, so this is a matter of everyday choices rather than fate: it is in your hands.'
      : `${capitalize(numberWord(majors.length))} of the ${numberWord(total)} cards ${majors.length === 1 ? 'is a major arcana card' : 'are major arcana'} (${listJoin(majors.map((m) => m.card.name))}), a sign that ${majors.length * 2 >= total ? 'this question belongs to a significant chapter of your life' : 'a larger theme runs underneath the day-to-day details'}.`,
  );
  if (topSuit && (suits.get(topSuit) ?? 0) >= 2) {
    sentences.push(
      `${SUITS[topSuit].name} lead${suits.get(topSuit)! > 1 ? '' : 's'} among the minor cards, which puts the accent on ${SUITS[topSuit].domain}.`,
    );
  }
  sentences.push(
    reversed.length === 0
      ? 'Every card is upright: the energies in play are visible and available to you.'
      : reversed.length * 2 > total
        ? `${capitalize(numberWord(reversed.length))} cards are reversed, so much of what is happening is internal, delayed or resisted.`
        : `${capitalize(numberWord(reversed.length))} of the cards ${reversed.length === 1 ? 'is' : 'are'} reversed, showing where energy is blocked or turned inward.`,
  );
  return `${sentences.join(' ')} Because your question is about ${THEME_PHRASE[theme]}, each card is read through that lens below.`;
}

function quote(question: string): string {
  return question ? `“${question}”` : 'your question';
}

function asked(question: string): string {
  return question
    ? quoted(question)
    : 'nothing in particular, so the cards speak to your situation in general.';
}

export function tarotTraditionalReading(facts: TarotFacts): string {
  const theme = questionTheme(facts.question);
  const [past, present, future] = facts.cards as [PlacedCard, PlacedCard, PlacedCard];
  const name = facts.firstName || 'Friend';
  const kw = (c: PlacedCard) => meaningOf(c.card, c.orientation).keywords[0]!;
  return [
    `## Your Reading, ${name}`,
    paragraphs(
      `You asked: ${asked(facts.question)} Three cards were laid for the past, the present and the future: ${cardTitle(past)}, ${cardTitle(present)} and ${cardTitle(future)}.`,
      overview(facts, theme),
    ),
    ...[past, present, future].flatMap((placed) => [
      `## The ${placed.position.name}`,
      cardParagraph(placed, theme, false),
    ]),
    '## Putting It Together',
    paragraphs(
      `Read as a story, the cards move from ${kw(past)} through ${kw(present)} towards ${kw(future)}. ${past.orientation === 'reversed' && future.orientation === 'upright' ? 'What was blocked behind you opens up ahead: the trend is improving.' : past.orientation === 'upright' && future.orientation === 'reversed' ? 'The ease of the past meets resistance ahead, so prepare rather than coast.' : future.orientation === 'upright' ? 'The way ahead is open; keep going in the direction the present card shows.' : 'The way ahead asks for patience and some inner work before things move.'}`,
      `Your answer to ${quote(facts.question)} lies mostly in the present card and its ${listJoin(meaningOf(present.card, present.orientation).keywords.slice(0, 2))}. ${present.orientation === 'upright' ? `Act on what ${present.card.name} is showing you now.` : `Work on what ${present.card.name} reversed points to before expecting the future card to arrive in full.`}`,
      'The cards show the currents around you, not a fixed fate; your choices shape what they become.',
    ),
  ].join('\n\n');
}

export function celticCrossReading(facts: TarotFacts): string {
  const theme = questionTheme(facts.question);
  const c = facts.cards as PlacedCard[];
  const at = (n: number) => c[n - 1]!;
  const kw = (p: PlacedCard) => meaningOf(p.card, p.orientation).keywords[0]!;
  const name = facts.firstName || 'Friend';
  const outcome = at(10);
  return [
    `## Your Celtic Cross, ${name}`,
    paragraphs(
      `You asked: ${asked(facts.question)} Ten cards were laid in the Celtic Cross: six form the cross at the centre and four the staff beside it.`,
      overview(facts, theme),
    ),
    '## The Heart of the Matter',
    paragraphs(
      cardParagraph(at(1), theme),
      cardParagraph(at(2), theme),
      `Together: ${kw(at(1))} is at the centre, and ${kw(at(2))} is what crosses it. The reading turns on how you handle that tension.`,
    ),
    '## Roots and Aims',
    paragraphs(
      cardParagraph(at(3), theme),
      cardParagraph(at(5), theme),
      `Below lies ${kw(at(3))}; above, ${kw(at(5))}. What you are building on and what you are reaching for are ${at(3).orientation === at(5).orientation ? 'in step' : 'at odds, so check that the foundation can carry the goal'}.`,
    ),
    '## What Is Passing and What Is Coming',
    paragraphs(cardParagraph(at(4), theme), cardParagraph(at(6), theme)),
    '## You and Your World',
    paragraphs(cardParagraph(at(7), theme), cardParagraph(at(8), theme)),
    '## Hopes, Fears and the Outcome',
    paragraphs(cardParagraph(at(9), theme), cardParagraph(outcome, theme)),
    '## Summary',
    paragraphs(
      `From ${at(1).card.name} at the centre to ${outcome.card.name} as the outcome, your question about ${THEME_PHRASE[theme]} moves from ${kw(at(1))} towards ${kw(outcome)}. ${outcome.orientation === 'upright' ? 'The outcome card is upright: the path is open if you keep working with what the cross shows.' : 'The outcome card is reversed: the result is not yet settled, and the cards in positions 2 and 7 show what to change.'}`,
      `Your own attitude (${at(7).card.name}) is the card you have most control over: make the most of its ${listJoin(meaningOf(at(7).card, at(7).orientation).keywords.slice(0, 2))}.`,
      'A Celtic Cross describes the forces around a question at this moment; as you act on it, the picture changes with you.',
    ),
  ].join('\n\n');
}
