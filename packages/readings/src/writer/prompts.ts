/**
 * Prompts for a language-model writer (the OpenAI adapter lives in services/api). Each builder
 * lists our computed facts in the user message, so the model interprets our positions, cards
 * and numbers instead of inventing its own.
 */
import { type ChartPoint, UNKNOWN_TIME_NOON } from '../astro/natalChart.ts';
import { formatZodiacal, HOUSE_KEYS, POINT_KEYS } from '../astro/zodiac.ts';
import { COMPATIBILITY_SCORE_SCALE } from '../compatibility/relationshipScore.ts';
import type { CompatibilityFacts, LifePathFacts, NatalFacts, TarotFacts } from '../facts.ts';
import { numberMeaning } from '../numerology/meanings.ts';
import { meaningOf } from '../tarot/deck.ts';
import { formatLongDate, orbText } from './format.ts';

export interface Prompt {
  system: string;
  user: string;
}

const STYLE = [
  'Write in English, in the second person, warm but grounded; no fatalism, no medical, legal or financial advice.',
  'Format: plain text with "## " headings (one per section) and "**bold**" lines as sub-headings; paragraphs separated by a blank line; no other Markdown, no HTML, no tables.',
  'Use ONLY the facts given in the user message. Never invent or recompute positions, cards, numbers or scores, and never say you are an AI.',
  'Never leave placeholders such as [Name] or "insert here".',
].join('\n');

function pointLine(p: ChartPoint, withHouse: boolean): string {
  return `- ${p.name}: ${formatZodiacal(p.abs_pos)} (${p.abs_pos.toFixed(2)}°)${withHouse && p.house !== null ? `, house ${p.house}` : ''}${p.retrograde ? ', retrograde' : ''}`;
}

/** The lines a chart of an unknown birth time has instead of its houses and angles. */
function unknownTimeLines(facts: NatalFacts): string[] {
  const range = facts.chart.moonRange;
  if (facts.chart.timeKnown || !range) return [];
  return [
    `Birth time UNKNOWN: the chart is drawn for ${UNKNOWN_TIME_NOON} local time. There is no Ascendant, Midheaven or house: do not mention houses, the Ascendant, the Midheaven or rising signs; say once, plainly, that they need the birth time.`,
    `The Moon moved from ${formatZodiacal(range.start)} to ${formatZodiacal(range.end)} over the birth day${range.signs.length > 1 ? `: its sign may be ${range.signs.join(' or ')}; say so` : `, all in ${range.signs[0]}`}.`,
  ];
}

function chartLines(facts: NatalFacts, full = true): string[] {
  const { chart, aspects, houseSystem, time } = facts.chart;
  const lines = [
    `Birth: ${formatLongDate(facts.person.birthDate)} ${facts.chart.timeKnown ? facts.person.birthTime : 'time unknown'} local time in ${facts.place.name}, ${facts.place.countryName} (${facts.place.latitude.toFixed(4)}, ${facts.place.longitude.toFixed(4)}; ${facts.place.timezone}; UT${time.utcOffset}; ${time.utc}).`,
    houseSystem
      ? `Zodiac: tropical. Houses: ${houseSystem.name}${houseSystem.fallback ? ' (Placidus is undefined at this latitude)' : ''}.`
      : 'Zodiac: tropical. Houses: none (birth time unknown).',
    ...unknownTimeLines(facts),
    'Points:',
    ...POINT_KEYS.flatMap((k) => {
      const p = chart[k];
      return p ? [pointLine(p, k !== 'ascendant' && k !== 'medium_coeli')] : [];
    }),
  ];
  if (!full) return lines;
  return [
    ...lines,
    ...(houseSystem
      ? [
          'House cusps:',
          ...HOUSE_KEYS.map((k, i) => `- ${i + 1}: ${formatZodiacal(chart[k]!.abs_pos)}`),
        ]
      : []),
    'Major aspects (tightest first):',
    ...aspects
      .slice(0, 20)
      .map((a) => `- ${a.p1_name} ${a.aspect} ${a.p2_name}, orb ${orbText(a.orb)}`),
  ];
}

export const promptFor = {
  natalChart(facts: NatalFacts): Prompt {
    return {
      system: `You are an experienced astrologer writing a personal natal chart report.\n${STYLE}\nLength: 900 to 1400 words. Sections: the chart at a glance; Sun, Moon and Ascendant; Mercury, Venus and Mars; Jupiter, Saturn and the outer planets by house; career (Midheaven); element and mode balance; the strongest aspects; nodes, Chiron and Lilith; a closing synthesis.`,
      user: [
        `Write the natal report for ${facts.person.firstName} ${facts.person.lastName}.`,
        ...chartLines(facts),
      ].join('\n'),
    };
  },

  tarotTraditional(facts: TarotFacts): Prompt {
    return {
      system: `You are a thoughtful tarot reader using the Rider–Waite–Smith deck, reading a three-card past / present / future spread.\n${STYLE}\nLength: 450 to 700 words. Address the querent by first name, read each card in its position and orientation against the question, then draw the three together into an answer.`,
      user: tarotUser(facts),
    };
  },

  celticCross(facts: TarotFacts): Prompt {
    return {
      system: `You are a thoughtful tarot reader using the Rider–Waite–Smith deck, reading the ten-card Celtic Cross.\n${STYLE}\nLength: 900 to 1300 words. Read every position in order against the question, relate the pairs (1–2, 3–5, 4–6, 7–8, 9–10), and end with a summary.`,
      user: tarotUser(facts),
    };
  },

  compatibility(facts: CompatibilityFacts): Prompt {
    const n1 = facts.person1.person.firstName;
    const n2 = facts.person2.person.firstName;
    const s = facts.score;
    return {
      system: `You are an experienced astrologer writing a synastry (relationship compatibility) report.\n${STYLE}\nLength: 800 to 1200 words. Explain the score and each contact that scored, compare Sun, Moon, Venus and Mars, mention other close contacts, and end with practical advice. Refer to the people by first name.`,
      user: [
        `Compatibility of ${n1} ${facts.person1.person.lastName} and ${n2} ${facts.person2.person.lastName}.`,
        `Score: ${s.score} of ${COMPATIBILITY_SCORE_SCALE} (Ciro Discepolo's method), rated "${s.label}".`,
        s.sameSunQuality
          ? `- Both Suns in ${s.sameSunQuality.quality.toLowerCase()} signs: +5`
          : '- Suns in different modes: +0',
        ...s.aspects.map(
          (a) =>
            `- ${n1}'s ${a.p1_name} ${a.aspect} ${n2}'s ${a.p2_name}, orb ${orbText(a.orb)}: +${a.points}`,
        ),
        `Chart of ${n1}:`,
        ...chartLines(facts.person1, false),
        `Chart of ${n2}:`,
        ...chartLines(facts.person2, false),
        `Aspects between the charts (${n1}'s point first, tightest first):`,
        ...facts.aspects
          .slice(0, 15)
          .map((a) => `- ${a.p1_name} ${a.aspect} ${a.p2_name}, orb ${orbText(a.orb)}`),
      ].join('\n'),
    };
  },

  lifePath(facts: LifePathFacts): Prompt {
    const line = (label: string, n: number) => {
      const m = numberMeaning(n);
      return `- ${label}: ${n}${m ? ` (${m.title}; ${m.keywords.join(', ')})` : ''}`;
    };
    return {
      system: `You are a numerologist writing a Pythagorean numerology reading.\n${STYLE}\nLength: 600 to 900 words. One section per number (life path, destiny, soul urge) showing briefly how it was found, then how the three work together.`,
      user: [
        `Reading for ${facts.firstName} ${facts.lastName}, born ${formatLongDate(facts.birthDate)}.`,
        line('Life path', facts.lifePath.value),
        `  working: month ${facts.lifePath.month} + day ${facts.lifePath.day} + year ${facts.lifePath.year} = ${facts.lifePath.total}`,
        line('Destiny', facts.destiny.value),
        `  working: ${facts.destiny.parts.map((p) => `${p.letters} ${p.sum}→${p.reduced}`).join(', ')}`,
        line('Soul urge', facts.soulUrge.value),
        `  working (vowels A E I O U): ${facts.soulUrge.parts.map((p) => `${p.letters} ${p.sum}→${p.reduced}`).join(', ')}`,
      ].join('\n'),
    };
  },
} as const;

function tarotUser(facts: TarotFacts): string {
  return [
    `Querent: ${facts.firstName}.`,
    `Question: ${facts.question}`,
    'Cards:',
    ...facts.cards.map((c) => {
      const m = meaningOf(c.card, c.orientation);
      return `${c.position.number}. ${c.position.name} (${c.position.description}): ${c.card.name}, ${c.orientation}. Keywords: ${m.keywords.join(', ')}.`;
    }),
  ].join('\n');
}
