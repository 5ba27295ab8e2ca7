/**
 * The `result` objects of the HTTP contract, assembled from computed facts and the writer's
 * text. Field names the contract fixes are marked; the others are additions for the web app.
 */
import type { Aspect } from './astro/aspects.ts';
import {
  type BirthTimeResolution,
  type ChartData,
  type HouseSystemUsed,
  type MoonRange,
  UNKNOWN_TIME_NOON,
} from './astro/natalChart.ts';
import type { RelationshipLabel, ScoredAspect } from './compatibility/relationshipScore.ts';
import type {
  BirthDetails,
  CompatibilityFacts,
  LifePathFacts,
  NatalFacts,
  ResolvedPlace,
  TarotFacts,
} from './facts.ts';
import type { Orientation } from './tarot/deck.ts';
import { placedMeaning } from './tarot/spreads.ts';

export interface BirthInfo {
  firstName: string;
  lastName: string;
  birthDate: string;
  /** The time given; with `timeUnknown`, the noon the chart was drawn for. */
  birthTime: string;
  /** The birth time is unknown: no Ascendant, Midheaven or houses (absent on older readings). */
  timeUnknown: boolean;
  /** City and country as the user typed them. */
  city: string;
  country: string;
  place: ResolvedPlace;
}

function birthInfo(person: BirthDetails, place: ResolvedPlace): BirthInfo {
  return {
    firstName: person.firstName.trim(),
    lastName: person.lastName.trim(),
    birthDate: person.birthDate,
    birthTime: person.timeUnknown ? UNKNOWN_TIME_NOON : (person.birthTime ?? ''),
    timeUnknown: Boolean(person.timeUnknown),
    city: person.city.trim(),
    country: person.country.trim(),
    place,
  };
}

export interface NatalChartResult {
  /** Contract: points sun … true_south_node {name, abs_pos, retrograde}, houses {abs_pos}. */
  chart: ChartData;
  /** The report text (the spec's fullReport). */
  fullReport: string;
  aspects: Aspect[];
  /** Null when the birth time is unknown (no houses). */
  houseSystem: HouseSystemUsed | null;
  /** With an unknown birth time: where the Moon was over the day (its sign may differ). */
  moonRange: MoonRange | null;
  birthTime: BirthTimeResolution;
  birthInfo: BirthInfo;
}

export function natalChartResult(facts: NatalFacts, text: string): NatalChartResult {
  return {
    chart: facts.chart.chart,
    fullReport: text,
    aspects: facts.chart.aspects,
    houseSystem: facts.chart.houseSystem,
    moonRange: facts.chart.moonRange,
    birthTime: facts.chart.time,
    birthInfo: birthInfo(facts.person, facts.place),
  };
}

export interface TarotCardResult {
  position: string;
  name: string;
  orientation: Orientation;
  meaning: string;
  /** 1-based place in the spread. */
  number: number;
  positionKey: string;
  cardId: string;
  keywords: readonly string[];
}

function cardResults(facts: TarotFacts): TarotCardResult[] {
  return facts.cards.map((c) => ({
    position: c.position.name,
    name: c.card.name,
    orientation: c.orientation,
    meaning: placedMeaning(c),
    number: c.position.number,
    positionKey: c.position.key,
    cardId: c.card.id,
    keywords: c.orientation === 'upright' ? c.card.upright.keywords : c.card.reversed.keywords,
  }));
}

export interface TarotTraditionalResult {
  firstName: string;
  question: string;
  readingText: string;
  pastCardName: string;
  pastOrientation: Orientation;
  presentCardName: string;
  presentOrientation: Orientation;
  futureCardName: string;
  futureOrientation: Orientation;
  cards: TarotCardResult[];
}

export function tarotTraditionalResult(facts: TarotFacts, text: string): TarotTraditionalResult {
  if (facts.spread !== 'three_card' || facts.cards.length !== 3) {
    throw new Error('tarotTraditionalResult needs a three-card draw');
  }
  const [past, present, future] = facts.cards as [
    TarotFacts['cards'][0],
    TarotFacts['cards'][0],
    TarotFacts['cards'][0],
  ];
  return {
    firstName: facts.firstName,
    question: facts.question,
    readingText: text,
    pastCardName: past.card.name,
    pastOrientation: past.orientation,
    presentCardName: present.card.name,
    presentOrientation: present.orientation,
    futureCardName: future.card.name,
    futureOrientation: future.orientation,
    cards: cardResults(facts),
  };
}

export interface CelticCrossResult {
  firstName: string;
  question: string;
  text: string;
  /** Contract: ten cards {position, name, orientation, meaning}. */
  cards: TarotCardResult[];
}

export function celticCrossResult(facts: TarotFacts, text: string): CelticCrossResult {
  if (facts.spread !== 'celtic_cross' || facts.cards.length !== 10) {
    throw new Error('celticCrossResult needs a ten-card Celtic Cross draw');
  }
  return { firstName: facts.firstName, question: facts.question, text, cards: cardResults(facts) };
}

export interface CompatibilityResult {
  compatibility_score: number;
  compatibility_score_description: RelationshipLabel;
  full_report: string;
  person1: BirthInfo;
  person2: BirthInfo;
  scoreBreakdown: {
    sameSunQuality: { quality: string; points: number } | null;
    aspects: ScoredAspect[];
  };
  aspects: Aspect[];
  charts: { person1: ChartData; person2: ChartData };
}

export function compatibilityResult(facts: CompatibilityFacts, text: string): CompatibilityResult {
  return {
    compatibility_score: facts.score.score,
    compatibility_score_description: facts.score.label,
    full_report: text,
    person1: birthInfo(facts.person1.person, facts.person1.place),
    person2: birthInfo(facts.person2.person, facts.person2.place),
    scoreBreakdown: { sameSunQuality: facts.score.sameSunQuality, aspects: facts.score.aspects },
    aspects: facts.aspects,
    charts: { person1: facts.person1.chart.chart, person2: facts.person2.chart.chart },
  };
}

export interface LifePathResult {
  lifePathNumber: number;
  destinyNumber: number;
  soulUrgeNumber: number;
  text: string;
  firstName: string;
  lastName: string;
  birthDate: string;
}

export function lifePathResult(facts: LifePathFacts, text: string): LifePathResult {
  return {
    lifePathNumber: facts.lifePath.value,
    destinyNumber: facts.destiny.value,
    soulUrgeNumber: facts.soulUrge.value,
    text,
    firstName: facts.firstName,
    lastName: facts.lastName,
    birthDate: facts.birthDate,
  };
}
