/**
 * Natal chart: tropical zodiac, Placidus houses (Porphyry inside the polar circles), apparent
 * geocentric positions from swe_calc_ut with SEFLG_SWIEPH | SEFLG_SPEED — the conventions of
 * Kerykeion and AstroSeek.
 */
import { ReadingInputError } from '../errors.ts';
import {
  formatOffset,
  isLocalMeanTime,
  type LocalTimeRule,
  localMeanTimeOffsetSeconds,
  resolveLocalTime,
} from '../time/localTime.ts';
import { type Aspect, natalAspects } from './aspects.ts';
import { calcBody, calcHouses, EPHEMERIS_RANGE, julianDayUT, SE } from './ephemeris.ts';
import {
  type AngleKey,
  type BodyKey,
  type Element,
  HOUSE_KEYS,
  HOUSE_NAMES,
  type HouseKey,
  normalizeDegrees,
  POINT_KEYS,
  POINT_NAMES,
  type PointKey,
  type Quality,
  SIGNS,
} from './zodiac.ts';

/** The time a chart is drawn for when the birth time is unknown (astro.com's and Co-Star's). */
export const UNKNOWN_TIME_NOON = '12:00';

export interface BirthMoment {
  /** Local civil date, YYYY-MM-DD. */
  date: string;
  /**
   * Local civil time, HH:MM or HH:MM:SS (24-hour clock); null: unknown, the planets are drawn
   * for noon local time and the chart has no Ascendant, Midheaven or houses.
   */
  time: string | null;
  /** Degrees north (negative south), −90…90. */
  latitude: number;
  /** Degrees east (negative west), −180…180. */
  longitude: number;
  /** IANA time zone name, e.g. 'Europe/Berlin'. */
  timezone: string;
  /**
   * Which local mean time to use when the zone had not yet adopted standard time: 'place'
   * (default) — the birthplace's own LMT from its longitude, as astrologers and Astro-Databank
   * do; 'zone' — the tz database's LMT, which is that of the zone's reference city.
   */
  localMeanTime?: 'place' | 'zone';
}

export interface ChartPoint {
  name: string;
  /** Tropical ecliptic longitude, 0 ≤ abs_pos < 360. */
  abs_pos: number;
  /** Negative longitude speed (apparent backward motion). Never true for the Ascendant / MC. */
  retrograde: boolean;
  sign: string;
  /** 0 = Aries … 11 = Pisces. */
  sign_num: number;
  /** Degrees within the sign, 0 ≤ position < 30. */
  position: number;
  /** House the point falls in, 1–12; null when the birth time is unknown (no houses). */
  house: number | null;
  house_name: string | null;
  /** Longitude speed in degrees per day (0 for the Ascendant and MC). */
  speed: number;
  /** Ecliptic latitude in degrees (0 for the Ascendant and MC). */
  latitude: number;
  element: Element;
  quality: Quality;
}

export interface ChartHouse {
  name: string;
  number: number;
  abs_pos: number;
  sign: string;
  sign_num: number;
  position: number;
}

/** The bodies always; the angles and houses only with a known birth time. */
export type ChartData = { [K in BodyKey]: ChartPoint } & {
  [K in AngleKey]?: ChartPoint;
} & { [K in HouseKey]?: ChartHouse };
/** A point of a chart drawn for a known birth time: in a house. */
export type HousedPoint = ChartPoint & { house: number; house_name: string };
/** A chart drawn for a known birth time: with Ascendant, Midheaven and houses. */
export type TimedChartData = { [K in PointKey]: HousedPoint } & { [K in HouseKey]: ChartHouse };

export type HouseSystemName = 'Placidus' | 'Porphyry';

export interface HouseSystemUsed {
  requested: 'Placidus';
  name: HouseSystemName;
  /** Swiss Ephemeris house-system letter: 'P' Placidus, 'O' Porphyry. */
  id: 'P' | 'O';
  fallback: boolean;
  reason: string | null;
}

export interface BirthTimeResolution {
  /** The wall-clock time given, ISO without offset. */
  local: string;
  timezone: string;
  /** The instant used, ISO 8601 UTC (to the second). */
  utc: string;
  julianDayUT: number;
  /** Offset applied to the local time (seconds east of Greenwich). */
  utcOffsetSeconds: number;
  /** The same as ±HH:MM[:SS]. */
  utcOffset: string;
  /** The IANA zone's own offset at that instant. */
  zoneOffsetSeconds: number;
  /** 'zone' or, before standard time with localMeanTime 'place', the birthplace's own LMT. */
  offsetSource: 'zone' | 'local_mean_time_of_place';
  /** How a wall time made ambiguous or impossible by a clock change was read. */
  rule: LocalTimeRule;
  /** Length of the skipped interval for 'gap_shifted_forward', else 0. */
  gapSeconds: number;
  /** The other instant an ambiguous wall time could mean (ISO UTC), else null. */
  alternativeUtc: string | null;
}

export interface NatalChart {
  chart: ChartData;
  aspects: Aspect[];
  /** False: the birth time is unknown; the chart is drawn for noon and has no angles or houses. */
  timeKnown: boolean;
  /** Null when the birth time is unknown. */
  houseSystem: HouseSystemUsed | null;
  /**
   * When the birth time is unknown: where the Moon (12–15° a day) was over the birth day, from
   * local midnight to the next (noon ± 12 hours), and the signs it was in. Null otherwise.
   */
  moonRange: MoonRange | null;
  time: BirthTimeResolution;
  location: { latitude: number; longitude: number; timezone: string };
}

export interface MoonRange {
  /** Longitude at the day's start and end. */
  start: number;
  end: number;
  /** The signs it passed through, in order (one or two). */
  signs: string[];
}

function moonRangeAround(jdNoon: number): MoonRange {
  const start = normalizeDegrees(calcBody(jdNoon - 0.5, SE.MOON).longitude);
  const end = normalizeDegrees(calcBody(jdNoon + 0.5, SE.MOON).longitude);
  const first = Math.floor(start / 30);
  const last = Math.floor(end / 30);
  const signs = [SIGNS[first]!.name];
  // The Moon moves under 16° a day: it crosses at most one sign boundary.
  if (last !== first) signs.push(SIGNS[last]!.name);
  return { start, end, signs };
}

/** The chart of a known birth time. */
export interface TimedNatalChart extends NatalChart {
  chart: TimedChartData;
  timeKnown: true;
  houseSystem: HouseSystemUsed;
  moonRange: null;
}

/** Whether a chart was drawn for a known birth time (and so has its angles and houses). */
export const isTimed = (chart: NatalChart): chart is TimedNatalChart => chart.timeKnown;

const BODIES: ReadonlyArray<readonly [PointKey, number]> = [
  ['sun', SE.SUN],
  ['moon', SE.MOON],
  ['mercury', SE.MERCURY],
  ['venus', SE.VENUS],
  ['mars', SE.MARS],
  ['jupiter', SE.JUPITER],
  ['saturn', SE.SATURN],
  ['uranus', SE.URANUS],
  ['neptune', SE.NEPTUNE],
  ['pluto', SE.PLUTO],
  ['chiron', SE.CHIRON],
  ['mean_lilith', SE.MEAN_APOG],
  ['mean_node', SE.MEAN_NODE],
  ['true_node', SE.TRUE_NODE],
];

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

export interface ParsedBirthDate {
  year: number;
  month: number;
  day: number;
}

export function parseBirthDate(date: string, field = 'birthDate'): ParsedBirthDate {
  const m = DATE_PATTERN.exec(date.trim());
  if (!m) throw new ReadingInputError('invalid_date', 'Birth date must be YYYY-MM-DD', field);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const check = new Date(Date.UTC(2000, month - 1, day));
  check.setUTCFullYear(year);
  if (
    month < 1 ||
    month > 12 ||
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  ) {
    throw new ReadingInputError('invalid_date', `'${date}' is not a calendar date`, field);
  }
  return { year, month, day };
}

export function parseBirthTime(
  time: string,
  field = 'birthTime',
): { hour: number; minute: number; second: number } {
  const m = TIME_PATTERN.exec(time.trim());
  const hour = Number(m?.[1]);
  const minute = Number(m?.[2]);
  const second = Number(m?.[3] ?? 0);
  if (!m || hour > 23 || minute > 59 || second > 59) {
    throw new ReadingInputError('invalid_time', 'Birth time must be HH:MM (24-hour clock)', field);
  }
  return { hour, minute, second };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function isoSeconds(epochMs: number): string {
  return `${new Date(Math.round(epochMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** Local wall time → UT instant through the zone's history (see time/localTime.ts). */
export function resolveBirthTime(moment: BirthMoment): BirthTimeResolution {
  const { year, month, day } = parseBirthDate(moment.date);
  const { hour, minute, second } = parseBirthTime(moment.time ?? UNKNOWN_TIME_NOON);
  if (year < EPHEMERIS_RANGE.fromYear || year > EPHEMERIS_RANGE.toYear) {
    throw new ReadingInputError(
      'date_out_of_range',
      `Birth year must be between ${EPHEMERIS_RANGE.fromYear} and ${EPHEMERIS_RANGE.toYear}`,
      'birthDate',
    );
  }
  const local = { year, month, day, hour, minute, second };
  const resolved = resolveLocalTime(local, moment.timezone);
  let offset = resolved.offsetSeconds;
  let offsetSource: BirthTimeResolution['offsetSource'] = 'zone';
  // Before the zone's standard time, the birthplace's own local mean time (astro.com's rule).
  if (
    (moment.localMeanTime ?? 'place') === 'place' &&
    isLocalMeanTime(moment.timezone, resolved.epochMs)
  ) {
    offset = localMeanTimeOffsetSeconds(moment.longitude);
    offsetSource = 'local_mean_time_of_place';
  }
  const epochMs = resolved.epochMs + (resolved.offsetSeconds - offset) * 1000;
  const alternative = resolved.alternativeOffsetsSeconds[0];
  return {
    local: `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`,
    timezone: moment.timezone,
    utc: isoSeconds(epochMs),
    julianDayUT: julianDayUT(epochMs),
    utcOffsetSeconds: offset,
    utcOffset: formatOffset(offset),
    zoneOffsetSeconds: resolved.offsetSeconds,
    offsetSource,
    rule: resolved.rule,
    gapSeconds: resolved.gapSeconds,
    alternativeUtc:
      alternative === undefined ? null : isoSeconds(epochMs + (offset - alternative) * 1000),
  };
}

function validateLocation(moment: BirthMoment): void {
  const { latitude, longitude } = moment;
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    throw new ReadingInputError(
      'invalid_latitude',
      'Latitude must be between -90 and 90',
      'latitude',
    );
  }
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw new ReadingInputError(
      'invalid_longitude',
      'Longitude must be between -180 and 180',
      'longitude',
    );
  }
}

/** House (1–12) containing a longitude: from a cusp up to, not including, the next cusp. */
export function houseOf(longitude: number, cusps: readonly number[]): number {
  for (let i = 0; i < 12; i++) {
    const start = cusps[i]!;
    const span = normalizeDegrees(cusps[(i + 1) % 12]! - start);
    if (normalizeDegrees(longitude - start) < span) return i + 1;
  }
  return 1;
}

function makePoint(
  key: PointKey,
  longitude: number,
  speed: number,
  latitude: number,
  retrograde: boolean,
  cusps: readonly number[] | null,
): ChartPoint {
  const abs = normalizeDegrees(longitude);
  const sign = SIGNS[Math.floor(abs / 30) % 12]!;
  const house = cusps ? houseOf(abs, cusps) : null;
  return {
    name: POINT_NAMES[key],
    abs_pos: abs,
    retrograde,
    sign: sign.name,
    sign_num: sign.num,
    position: abs - sign.num * 30,
    house,
    house_name: house === null ? null : HOUSE_NAMES[house - 1]!,
    speed,
    latitude,
    element: sign.element,
    quality: sign.quality,
  };
}

const POLAR_REASON =
  'Placidus is undefined inside the polar circles (some ecliptic degrees never rise or set); ' +
  'Porphyry divides each quadrant between the Ascendant and MC in three equal parts instead.';

/** Placidus houses, or Porphyry's inside the polar circles where Placidus is undefined. */
function housesAt(jd: number, moment: BirthMoment) {
  const houses = calcHouses(jd, moment.latitude, moment.longitude, 'P');
  if (houses) {
    const system: HouseSystemUsed = {
      requested: 'Placidus',
      name: 'Placidus',
      id: 'P',
      fallback: false,
      reason: null,
    };
    return { cusps: houses.cusps, system };
  }
  const porphyry = calcHouses(jd, moment.latitude, moment.longitude, 'O');
  if (!porphyry) throw new Error('Swiss Ephemeris could not compute houses');
  const system: HouseSystemUsed = {
    requested: 'Placidus',
    name: 'Porphyry',
    id: 'O',
    fallback: true,
    reason: POLAR_REASON,
  };
  return { cusps: porphyry.cusps, system };
}

/**
 * Compute the natal chart for a birth moment. Pure apart from reading the bundled ephemeris.
 * Without a birth time the bodies are drawn for noon local time, and the chart leaves out what
 * the time alone fixes: the Ascendant, the Midheaven and the houses.
 */
export function computeNatalChart(moment: BirthMoment & { time: string }): TimedNatalChart;
export function computeNatalChart(moment: BirthMoment): NatalChart;
export function computeNatalChart(moment: BirthMoment): NatalChart {
  validateLocation(moment);
  const time = resolveBirthTime(moment);
  const jd = time.julianDayUT;
  const timeKnown = moment.time !== null;
  const houses = timeKnown ? housesAt(jd, moment) : null;
  const cusps = houses?.cusps ?? null;

  const points = new Map<PointKey, ChartPoint>();
  for (const [key, body] of BODIES) {
    const p = calcBody(jd, body);
    const retrograde = p.longitudeSpeed < 0;
    points.set(key, makePoint(key, p.longitude, p.longitudeSpeed, p.latitude, retrograde, cusps));
  }
  if (cusps) {
    points.set('ascendant', makePoint('ascendant', cusps[0]!, 0, 0, false, cusps));
    points.set('medium_coeli', makePoint('medium_coeli', cusps[9]!, 0, 0, false, cusps));
  }
  for (const [south, north] of [
    ['mean_south_node', 'mean_node'],
    ['true_south_node', 'true_node'],
  ] as const) {
    // The south node is the point opposite the north node and moves with it.
    const n = points.get(north)!;
    points.set(
      south,
      makePoint(south, n.abs_pos + 180, n.speed, 0 - n.latitude, n.retrograde, cusps),
    );
  }

  const chart = {} as Record<string, ChartPoint | ChartHouse>;
  for (const key of POINT_KEYS) {
    const point = points.get(key);
    if (point) chart[key] = point;
  }
  for (let i = 0; cusps && i < 12; i++) {
    const abs = normalizeDegrees(cusps[i]!);
    const sign = SIGNS[Math.floor(abs / 30) % 12]!;
    chart[HOUSE_KEYS[i]!] = {
      name: HOUSE_NAMES[i]!,
      number: i + 1,
      abs_pos: abs,
      sign: sign.name,
      sign_num: sign.num,
      position: abs - sign.num * 30,
    };
  }
  const data = chart as ChartData;

  return {
    chart: data,
    aspects: natalAspects(data),
    timeKnown,
    houseSystem: houses?.system ?? null,
    moonRange: timeKnown ? null : moonRangeAround(jd),
    time,
    location: {
      latitude: moment.latitude,
      longitude: moment.longitude,
      timezone: moment.timezone,
    },
  };
}
