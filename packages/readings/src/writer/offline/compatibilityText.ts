/** Offline compatibility report from the two charts, the score and the synastry aspects. */
import type { Aspect } from '../../astro/aspects.ts';
import type { ChartData } from '../../astro/natalChart.ts';
import type { PointKey } from '../../astro/zodiac.ts';
import {
  COMPATIBILITY_SCORE_SCALE,
  type ScoredAspect,
  type ScoringRule,
} from '../../compatibility/relationshipScore.ts';
import type { CompatibilityFacts, NatalFacts } from '../../facts.ts';
import { ASPECT_MEANINGS, POINT_MEANINGS, SIGN_MEANINGS } from '../astroMeanings.ts';
import { listJoin, orbText, paragraphs, plural, withArticle } from '../format.ts';

/** What a scoring contact means, naming whose point touches whose (a rule may score twice). */
const RULE_MEANING: Readonly<Record<ScoringRule, (from: string, to: string) => string>> = {
  sun_sun_hard: () =>
    'Your two Suns meet in a strong, tense angle: you notice each other immediately and challenge each other to grow, which can bind you as much as it provokes you.',
  sun_sun_soft: () =>
    'Your Suns support each other: your basic aims are compatible and you tend to respect each other’s way of being.',
  sun_moon_conjunction: (from, to) =>
    `${from}’s Sun sits on ${to}’s Moon, the classic sign of a deep bond: one shines, the other feels at home in that light.`,
  sun_moon_other: (from, to) =>
    `${from}’s Sun and ${to}’s Moon are in contact, linking what one of you is with what the other needs.`,
  sun_ascendant: (from, to) =>
    `${from}’s Sun touches ${to}’s Ascendant: there is strong recognition, as if each of you sees something familiar in how the other shows up.`,
  moon_ascendant: (from, to) =>
    `${from}’s Moon touches ${to}’s Ascendant: emotional ease and a quick sense of being understood.`,
  venus_mars: (from, to) =>
    `${from}’s Venus and ${to}’s Mars are in contact: the traditional signature of attraction and chemistry.`,
};

/** Rules are stated from the Sun (then Moon, Venus) of whichever person holds it. */
const LEADING: readonly PointKey[] = ['sun', 'moon', 'venus'];
function ruleText(a: ScoredAspect, n1: string, n2: string): string {
  const firstLeads =
    LEADING.indexOf(a.p1) !== -1 &&
    (LEADING.indexOf(a.p2) === -1 || LEADING.indexOf(a.p1) <= LEADING.indexOf(a.p2));
  return firstLeads ? RULE_MEANING[a.rule](n1, n2) : RULE_MEANING[a.rule](n2, n1);
}

const ELEMENT_FIT: Readonly<Record<string, string>> = {
  'Fire-Fire': 'two fires: lively, warm and quick to flare up',
  'Earth-Earth': 'two earth signs: steady, practical and loyal',
  'Air-Air': 'two air signs: talkative, curious and friendly',
  'Water-Water': 'two water signs: deep, intuitive and emotionally attuned',
  'Air-Fire': 'air feeding fire: ideas and enthusiasm spark each other',
  'Earth-Water': 'water and earth: feeling and practicality nourish each other',
  'Earth-Fire':
    'fire and earth: one pushes ahead, the other wants solid ground, and patience bridges the gap',
  'Fire-Water': 'fire and water: passion and sensitivity, which can steam or soothe',
  'Air-Earth': 'air and earth: ideas meet practicality, useful when each values the other',
  'Air-Water': 'air and water: thinking and feeling, which need translation between you',
};

function elementFit(a: string, b: string): string {
  return ELEMENT_FIT[[a, b].sort().join('-')] ?? 'a mixed pairing';
}

function who(key: PointKey, chart: ChartData, name: string): string {
  // A scored aspect's points exist in its chart (an unknown birth time has no Ascendant).
  const point = chart[key]!;
  return `${name}’s ${point.name} in ${point.sign}`;
}

/** What a missing birth time leaves out of the comparison, or null when both times are known. */
function unknownTimeNote(people: readonly [NatalFacts, string][]): string | null {
  const unknown = people.filter(([p]) => !p.chart.timeKnown);
  if (unknown.length === 0) return null;
  const one = unknown.length === 1;
  const moons = unknown.flatMap(([p, name]) => {
    const signs = p.chart.moonRange?.signs ?? [];
    return signs.length > 1
      ? [`${name}’s Moon was in ${signs.join(' or ')} that day, depending on the hour.`]
      : [];
  });
  return [
    `Without ${listJoin(unknown.map(([, name]) => `${name}’s`))} birth time, ${one ? 'that chart is' : 'the charts are'} drawn for noon local time and ${one ? 'has' : 'have'} no Ascendant or houses, so contacts to the Ascendant are left out of the score.`,
    'The Moon moves 12–15° a day, so its position is uncertain by up to 7° either way.',
    ...moons,
  ].join(' ');
}

function scoredParagraph(
  a: ScoredAspect,
  c1: ChartData,
  n1: string,
  c2: ChartData,
  n2: string,
): string {
  return `**${n1}’s ${a.p1_name} ${a.aspect} ${n2}’s ${a.p2_name} (orb ${orbText(a.orb)}): ${a.points} points**\n${who(a.p1, c1, n1)} and ${who(a.p2, c2, n2)}. ${ruleText(a, n1, n2)}`;
}

function aspectParagraph(a: Aspect, n1: string, n2: string): string {
  const m = ASPECT_MEANINGS[a.aspect];
  return `**${n1}’s ${a.p1_name} ${a.aspect} ${n2}’s ${a.p2_name} (orb ${orbText(a.orb)})**\n${n1}’s ${POINT_MEANINGS[a.p1].short} and ${n2}’s ${POINT_MEANINGS[a.p2].short} ${m.dynamic}.`;
}

const LABEL_TEXT: Readonly<Record<string, string>> = {
  Minimal:
    'The classic contacts are few, so this connection relies on choice and shared circumstances more than on instant chemistry.',
  Medium: 'There are some real points of contact: a good basis that grows with time and effort.',
  Important: 'The charts engage each other clearly; this is a relationship that leaves a mark.',
  'Very Important': 'Strong contacts link the two charts: a bond of real significance.',
  Exceptional: 'The charts are tied together in many classic ways: an exceptional link.',
  'Rare Exceptional': 'An unusually dense web of contacts: the kind of link that is rare.',
};

export function compatibilityReport(facts: CompatibilityFacts): string {
  const p1 = facts.person1;
  const p2 = facts.person2;
  const n1 = p1.person.firstName.trim() || 'Person 1';
  const n2 = p2.person.firstName.trim() || 'Person 2';
  const c1 = p1.chart.chart;
  const c2 = p2.chart.chart;
  const s = facts.score;
  const scoredKeys = new Set(s.aspects.map((a) => `${a.p1}|${a.p2}`));
  const others = facts.aspects.filter((a) => !scoredKeys.has(`${a.p1}|${a.p2}`)).slice(0, 5);
  const hard = facts.aspects.filter(
    (a) => ASPECT_MEANINGS[a.aspect].nature === 'challenging',
  ).length;
  const soft = facts.aspects.filter(
    (a) => ASPECT_MEANINGS[a.aspect].nature === 'harmonious',
  ).length;
  const fused = facts.aspects.length - hard - soft;

  return [
    `## ${n1} and ${n2}: Your Compatibility at a Glance`,
    paragraphs(
      `Your relationship score is ${s.score} out of ${COMPATIBILITY_SCORE_SCALE}, which the Discepolo method rates as **${s.label}**. ${LABEL_TEXT[s.label]}`,
      unknownTimeNote([
        [p1, n1],
        [p2, n2],
      ]),
      `${n1} is ${withArticle(c1.sun.sign)} Sun with the Moon in ${c1.moon.sign}; ${n2} is ${withArticle(c2.sun.sign)} Sun with the Moon in ${c2.moon.sign}. Across the two charts there ${facts.aspects.length === 1 ? 'is' : 'are'} ${plural(facts.aspects.length, 'major contact')} between the personal planets and angles: ${soft} harmonious, ${hard} challenging and ${plural(fused, 'conjunction')}.`,
    ),
    '## How the Score Was Built',
    paragraphs(
      s.sameSunQuality
        ? `**Both Suns in ${s.sameSunQuality.quality.toLowerCase()} signs: 5 points**\n${c1.sun.sign} and ${c2.sun.sign} share the ${s.sameSunQuality.quality.toLowerCase()} mode, so you approach life at a similar pace and in a similar way.`
        : `Your Suns are in different modes (${c1.sun.quality.toLowerCase()} and ${c2.sun.quality.toLowerCase()}), so no points for a shared mode; you move through life at different tempos.`,
      ...s.aspects.map((a) => scoredParagraph(a, c1, n1, c2, n2)),
      s.aspects.length === 0
        ? 'None of the classic scoring contacts (Sun–Sun, Sun–Moon, Sun or Moon to the Ascendant, Venus–Mars) is present between your charts.'
        : null,
    ),
    '## Identity and Emotion: Sun and Moon',
    paragraphs(
      `Your Suns form ${elementFit(c1.sun.element, c2.sun.element)}. ${n1} brings ${SIGN_MEANINGS[c1.sun.sign]!.gift}; ${n2} brings ${SIGN_MEANINGS[c2.sun.sign]!.gift}.`,
      `Emotionally, ${n1}’s Moon in ${c1.moon.sign} is ${SIGN_MEANINGS[c1.moon.sign]!.style}, while ${n2}’s Moon in ${c2.moon.sign} is ${SIGN_MEANINGS[c2.moon.sign]!.style}. Your Moons form ${elementFit(c1.moon.element, c2.moon.element)}.`,
    ),
    '## Love and Attraction: Venus and Mars',
    paragraphs(
      `In love, ${n1}’s Venus in ${c1.venus.sign} is ${SIGN_MEANINGS[c1.venus.sign]!.style}, and ${n1}’s Mars in ${c1.mars.sign} pursues what it wants in a way that is ${SIGN_MEANINGS[c1.mars.sign]!.style}. ${n2}’s Venus in ${c2.venus.sign} is ${SIGN_MEANINGS[c2.venus.sign]!.style}, and ${n2}’s Mars in ${c2.mars.sign} is ${SIGN_MEANINGS[c2.mars.sign]!.style}.`,
      `${n1}’s Venus and ${n2}’s Mars form ${elementFit(c1.venus.element, c2.mars.element)}; ${n2}’s Venus and ${n1}’s Mars form ${elementFit(c2.venus.element, c1.mars.element)}.`,
    ),
    '## Other Strong Connections',
    others.length
      ? paragraphs(...others.map((a) => aspectParagraph(a, n1, n2)))
      : 'Beyond the scoring contacts there are no other close aspects between your personal planets.',
    '## Making It Work',
    paragraphs(
      hard > soft
        ? `With more challenging contacts (${hard}) than easy ones (${soft}), this relationship grows through friction: name the tensions early, and treat your differences as the thing you are learning from each other.`
        : `With more easy contacts (${soft}) than challenging ones (${hard}), much comes naturally between you; the risk is taking it for granted, so keep choosing each other on purpose.`,
      `A score describes potential, not destiny. ${n1} and ${n2} decide what to build with it.`,
    ),
  ].join('\n\n');
}
