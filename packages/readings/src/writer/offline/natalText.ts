/** Offline natal report: the chart read point by point, in our own words. */
import type { Aspect } from '../../astro/aspects.ts';
import {
  type ChartData,
  type ChartPoint,
  type NatalChart,
  UNKNOWN_TIME_NOON,
} from '../../astro/natalChart.ts';
import {
  type BodyKey,
  type Element,
  formatZodiacal,
  ordinal,
  type PointKey,
  type Quality,
} from '../../astro/zodiac.ts';
import type { NatalFacts } from '../../facts.ts';
import { formatOffset } from '../../time/localTime.ts';
import {
  ASPECT_MEANINGS,
  ELEMENT_MEANINGS,
  HOUSE_MEANINGS,
  POINT_MEANINGS,
  SIGN_MEANINGS,
} from '../astroMeanings.ts';
import {
  capitalize,
  formatLongDate,
  listJoin,
  numberWord,
  orbText,
  paragraphs,
  withArticle,
} from '../format.ts';

const PLANETS: readonly BodyKey[] = [
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
];

function where(p: ChartPoint): string {
  return p.house === null
    ? formatZodiacal(p.abs_pos)
    : `${formatZodiacal(p.abs_pos)}, ${ordinal(p.house)} house`;
}

/** ' in the area of …' for a point in a house; '' without houses (birth time unknown). */
function houseArea(p: ChartPoint, lead = ', especially in '): string {
  return p.house === null ? '' : `${lead}${HOUSE_MEANINGS[p.house - 1]}`;
}

/** The points already described in each sign, so that a sign's portrait is written once. */
type SignsDescribed = Map<string, string[]>;

/**
 * One paragraph on a point: what it is, how its sign colours it (the sign's portrait the first
 * time, a pointer back to it after), where its house puts it.
 */
function pointParagraph(
  key: PointKey,
  p: ChartPoint,
  described: SignsDescribed,
  showHouse = true,
): string {
  const sign = SIGN_MEANINGS[p.sign]!;
  const meaning = POINT_MEANINGS[key];
  const own = p.name === 'Medium Coeli' ? 'the Midheaven' : `your ${p.name}`;
  const before = described.get(p.sign) ?? [];
  const parts = [
    `${capitalize(own)} describes ${meaning.theme}.`,
    before.length === 0
      ? `In ${p.sign} it is ${sign.style}: its gift is ${sign.gift}, its pitfall ${sign.challenge}.`
      : `It shares ${p.sign} with your ${listJoin(before)}, so it too works in a way that is ${sign.style}.`,
  ];
  described.set(p.sign, [...before, p.name]);
  const housed = showHouse && p.house !== null;
  if (housed) {
    parts.push(
      `Placed in the ${ordinal(p.house!)} house, ${own} does its work in the area of ${HOUSE_MEANINGS[p.house! - 1]}.`,
    );
  }
  if (p.retrograde) {
    parts.push(
      `${p.name} was retrograde when you were born, which turns its energy inward: you tend to revisit, rethink and refine in this area before you act on it.`,
    );
  }
  return `**${p.name} in ${p.sign}${housed ? ` (${where(p)})` : ` (${formatZodiacal(p.abs_pos)})`}**\n${parts.join(' ')}`;
}

function countBy<T extends string>(
  chart: ChartData,
  pick: (p: ChartPoint) => T,
): Map<T, BodyKey[]> {
  const out = new Map<T, BodyKey[]>();
  for (const key of PLANETS) {
    const value = pick(chart[key]);
    const list = out.get(value) ?? [];
    list.push(key);
    out.set(value, list);
  }
  return out;
}

function dominant<T extends string>(
  counts: Map<T, PointKey[]>,
  all: readonly T[],
): { top: T; missing: T[] } {
  let top = all[0]!;
  for (const value of all)
    if ((counts.get(value)?.length ?? 0) > (counts.get(top)?.length ?? 0)) top = value;
  return { top, missing: all.filter((v) => !counts.has(v)) };
}

const QUALITY_MEANINGS: Readonly<Record<Quality, string>> = {
  Cardinal: 'you like to start things, take the initiative and set the direction',
  Fixed: 'you sustain, consolidate and see things through once you are committed',
  Mutable: 'you adapt, adjust and move easily between people, roles and ideas',
};

function balanceSection(chart: ChartData): string {
  const elements = countBy<Element>(chart, (p) => p.element);
  const qualities = countBy<Quality>(chart, (p) => p.quality);
  const allElements: Element[] = ['Fire', 'Earth', 'Air', 'Water'];
  const allQualities: Quality[] = ['Cardinal', 'Fixed', 'Mutable'];
  const el = dominant(elements, allElements);
  const q = dominant(qualities, allQualities);
  const names = (keys: BodyKey[] | undefined) => listJoin((keys ?? []).map((k) => chart[k].name));
  const counts = allElements.map((e) => `${e} ${elements.get(e)?.length ?? 0}`).join(', ');
  return paragraphs(
    `Counting the ten planets by element gives ${counts}. ${el.top} leads, with ${names(elements.get(el.top))}, so ${ELEMENT_MEANINGS[el.top]} sits at the centre of your temperament.`,
    el.missing.length
      ? `There is no planet in ${listJoin(el.missing)}. A missing element is not a lack of ability; it is an area you reach consciously rather than by instinct, and often one you seek out in other people — ${listJoin(el.missing.map((m) => ELEMENT_MEANINGS[m]))}.`
      : 'Every element is represented, which gives you a range of responses to draw on.',
    `By mode, ${q.top} signs dominate (${names(qualities.get(q.top))}): ${QUALITY_MEANINGS[q.top]}.`,
  );
}

function aspectParagraph(a: Aspect): string {
  const m = ASPECT_MEANINGS[a.aspect];
  const one = POINT_MEANINGS[a.p1];
  const two = POINT_MEANINGS[a.p2];
  const pair = `${a.p1_name}–${a.p2_name} ${a.aspect}`;
  const strength =
    a.orb < 1
      ? `The ${pair} is almost exact, among the loudest notes in your chart.`
      : a.orb < 3
        ? `The ${pair} is close and clearly felt.`
        : `The ${pair} is wider and works more in the background.`;
  return `**${a.p1_name} ${a.aspect} ${a.p2_name} (orb ${orbText(a.orb)})**\nYour ${one.short} (${a.p1_name}) and your ${two.short} (${a.p2_name}) ${m.dynamic}. ${strength}`;
}

/** Aspects worth a paragraph: between planets and angles, tightest first. */
export function keyAspects(chart: NatalChart, limit = 6): Aspect[] {
  const main = new Set<PointKey>([...PLANETS, 'ascendant', 'medium_coeli']);
  return chart.aspects.filter((a) => main.has(a.p1) && main.has(a.p2)).slice(0, limit);
}

/**
 * What an unknown birth time leaves out, and why: the default (noon), no Ascendant, Midheaven
 * or houses, and the Moon's uncertainty. Null when the time is known.
 */
export function unknownTimeNote(facts: NatalFacts): string | null {
  const range = facts.chart.moonRange;
  if (facts.chart.timeKnown || !range) return null;
  const moon = facts.chart.chart.moon;
  return [
    `You did not give a birth time, so this chart is drawn for noon (${UNKNOWN_TIME_NOON}) local time. The Ascendant, the Midheaven and the houses depend on the exact time (the Ascendant moves through every sign in a day), so they are left out, and so is everything read from them.`,
    range.signs.length > 1
      ? `The Moon moves 12–15° a day: at noon it stood at ${formatZodiacal(moon.abs_pos)}, but over your birth day it went from ${formatZodiacal(range.start)} to ${formatZodiacal(range.end)}, from ${range.signs[0]} into ${range.signs[1]}, so your Moon sign may be ${range.signs.join(' or ')} depending on the hour.`
      : `The Moon moves 12–15° a day: at noon it stood at ${formatZodiacal(moon.abs_pos)}, and it stayed in ${range.signs[0]} the whole day (${formatZodiacal(range.start)} to ${formatZodiacal(range.end)}), so its sign is certain, its degree less so.`,
    'The other planets move slowly enough that the day alone places them.',
  ].join(' ');
}

function birthNote(facts: NatalFacts): string | null {
  const t = facts.chart.time;
  if (t.rule === 'ambiguous_earlier') {
    return `Your birth time fell in the hour the clocks were turned back, which happened twice that night; the chart uses the first occurrence (${formatLongDate(t.utc.slice(0, 10))} at ${t.utc.slice(11, 16)} UT). If you know it was the second, the Ascendant and houses would shift.`;
  }
  if (t.rule === 'gap_shifted_forward') {
    return `The clocks jumped forward that night and ${facts.person.birthTime} did not exist on them; the chart reads it as ${Math.round(t.gapSeconds / 60)} minutes later on the new time, as a clock that was not changed would have shown.`;
  }
  if (t.offsetSource === 'local_mean_time_of_place') {
    return `At the time, ${facts.place.name} kept local mean time rather than a standard zone, so the chart uses the local mean time of its longitude (UT${t.utcOffset}).`;
  }
  return null;
}

export function natalReport(facts: NatalFacts): string {
  const { chart } = facts.chart;
  const name = facts.person.firstName.trim() || 'You';
  const sun = chart.sun;
  const moon = chart.moon;
  const asc = chart.ascendant;
  const mc = chart.medium_coeli;
  const node = chart.true_node;
  const retro = PLANETS.filter((k) => chart[k].retrograde).map((k) => chart[k].name);
  const hs = facts.chart.houseSystem;
  const aspects = keyAspects(facts.chart);
  const strongest = aspects[0];
  const described: SignsDescribed = new Map();
  const point = (key: PointKey, showHouse = true) => {
    const p = chart[key];
    return p ? pointParagraph(key, p, described, showHouse) : null;
  };
  const when = asc
    ? `at ${facts.person.birthTime}`
    : `(birth time unknown; the chart is drawn for ${UNKNOWN_TIME_NOON} local time)`;

  const intro = paragraphs(
    `${name}, you were born on ${formatLongDate(facts.person.birthDate)} ${when} in ${facts.place.name}, ${facts.place.countryName} (UT${formatOffset(facts.chart.time.utcOffsetSeconds)}). At that moment the Sun stood at ${formatZodiacal(sun.abs_pos)}, the Moon at ${formatZodiacal(moon.abs_pos)}${asc ? `, and ${asc.sign} was rising on the eastern horizon at ${formatZodiacal(asc.abs_pos)}` : ''}.`,
    asc
      ? `In short: ${withArticle(sun.sign)} core, ${SIGN_MEANINGS[sun.sign]!.style}; ${withArticle(moon.sign)} heart, ${SIGN_MEANINGS[moon.sign]!.style}; and ${withArticle(asc.sign)} manner, ${SIGN_MEANINGS[asc.sign]!.style}. The sections below take each part of the chart in turn.`
      : `In short: ${withArticle(sun.sign)} core, ${SIGN_MEANINGS[sun.sign]!.style}; and ${withArticle(moon.sign)} heart, ${SIGN_MEANINGS[moon.sign]!.style}. The sections below take each part of the chart in turn.`,
    unknownTimeNote(facts),
    birthNote(facts),
    hs?.fallback
      ? `Because you were born inside the polar circle, where the Placidus house system cannot be drawn, the houses are calculated with ${hs.name} houses.`
      : null,
  );

  const personal = ['mercury', 'venus', 'mars'] as const;
  const social = ['jupiter', 'saturn'] as const;
  const outer = ['uranus', 'neptune', 'pluto'] as const;

  const outerText = outer
    .map((k) => {
      const p = chart[k];
      if (p.house === null) {
        return `${p.name} in ${p.sign}${p.retrograde ? ' (retrograde)' : ''} brings ${POINT_MEANINGS[k].theme}.`;
      }
      return `${p.name} in ${p.sign} (${ordinal(p.house)} house${p.retrograde ? ', retrograde' : ''}) brings ${POINT_MEANINGS[k].theme} into ${HOUSE_MEANINGS[p.house - 1]}.`;
    })
    .join(' ');

  return [
    '## Your Chart at a Glance',
    intro,
    asc ? '## The Big Three: Sun, Moon and Ascendant' : '## Sun and Moon',
    paragraphs(point('sun'), point('moon'), point('ascendant', false)),
    `With the Sun and Moon ${sun.element === moon.element ? `both in ${sun.element} signs, what you want and what you need pull in the same direction` : `in ${sun.element} and ${moon.element} signs, what you aim for (${sun.element.toLowerCase()}) and what you need to feel safe (${moon.element.toLowerCase()}) speak different languages, and learning to translate between them is one of your lifelong skills`}.`,
    '## Mind, Love and Drive',
    paragraphs(...personal.map((k) => point(k))),
    '## Growth and Responsibility',
    paragraphs(
      ...social.map((k) => point(k)),
      asc
        ? `**The outer planets**\n${outerText} These slow planets mark a whole generation, so their house placement says more about you personally than their sign does.`
        : `**The outer planets**\n${outerText} These slow planets mark a whole generation; their houses, which would say more about you personally, need the birth time.`,
    ),
    '## Career and Public Life',
    mc
      ? `The Midheaven, the top of your chart, falls at ${formatZodiacal(mc.abs_pos)}. In ${mc.sign}, ${POINT_MEANINGS.medium_coeli.theme} are ${SIGN_MEANINGS[mc.sign]!.style}: you are recognised for ${SIGN_MEANINGS[mc.sign]!.gift}. ${(() => {
          const tenth = PLANETS.filter((k) => chart[k].house === 10).map((k) => chart[k].name);
          return tenth.length
            ? `${listJoin(tenth)} in the 10th house put${tenth.length === 1 ? 's' : ''} your working life in the spotlight.`
            : 'With no planet in the 10th house, the ruler of the Midheaven and your Sun carry most of the story about your vocation.';
        })()}`
      : `The Midheaven and the 10th house, which astrologers read for career, depend on the birth time, so they are not part of this chart. Your Sun in ${sun.sign} and Saturn in ${chart.saturn.sign} still say much about vocation: you are recognised for ${SIGN_MEANINGS[sun.sign]!.gift}.`,
    '## Elements and Modes',
    balanceSection(chart),
    '## Your Strongest Aspects',
    aspects.length
      ? paragraphs(
          `Aspects are the angles planets form with one another; they show which parts of you work as a team and which argue. ${aspects.length === 1 ? 'Your tightest is below.' : `Your ${numberWord(aspects.length)} tightest are below, closest first.`}`,
          ...aspects.map(aspectParagraph),
        )
      : 'Your planets form few close aspects, so each of them tends to act on its own terms rather than in a chorus.',
    '## Your Path: Nodes, Chiron and Lilith',
    paragraphs(
      `**North Node in ${node.sign} (${where(node)})**\nThe lunar nodes show a direction of travel. The North Node in ${node.sign} asks you to develop ${SIGN_MEANINGS[node.sign]!.gift}${houseArea(node)}. The South Node in ${chart.true_south_node.sign} is what already comes easily — ${SIGN_MEANINGS[chart.true_south_node.sign]!.gift} — and what you fall back on under stress.`,
      `**Chiron in ${chart.chiron.sign} (${where(chart.chiron)})**\nChiron marks ${POINT_MEANINGS.chiron.theme}. In ${chart.chiron.sign} the sore point has to do with ${SIGN_MEANINGS[chart.chiron.sign]!.challenge}${houseArea(chart.chiron, ', felt most in ')}.`,
      `**Lilith in ${chart.mean_lilith.sign} (${where(chart.mean_lilith)})**\nThe Black Moon Lilith shows ${POINT_MEANINGS.mean_lilith.theme}; in ${chart.mean_lilith.sign} it insists on being ${SIGN_MEANINGS[chart.mean_lilith.sign]!.style}.`,
    ),
    '## Bringing It Together',
    paragraphs(
      `Your chart combines ${sun.sign} purpose${asc ? `, ${moon.sign} feeling and ${withArticle(asc.sign)} way of meeting the world` : ` and ${moon.sign} feeling`}.${strongest ? ` The ${strongest.p1_name}–${strongest.p2_name} ${strongest.aspect} is its loudest conversation, and much of your story turns on how you handle it.` : ''}${retro.length ? ` With ${listJoin(retro)} retrograde, some of your best work happens on the second attempt, after reflection.` : ''}`,
      `Use the chart as a map rather than a verdict: the placements describe tendencies and talents, and what you make of them is yours to decide.`,
    ),
  ].join('\n\n');
}
