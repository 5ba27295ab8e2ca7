/**
 * The only place that talks to the Swiss Ephemeris (`swisseph`, mivion's Node binding of the
 * Swiss Ephemeris C library 2.09). The ephemeris path is set once, at import, to the binding's
 * bundled `ephe` folder: sepl_18.se1 (planets), semo_18.se1 (Moon) and seas_18.se1 (Chiron and
 * the main asteroids), each covering 1800–2399 CE. Nothing else is read.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import swisseph from 'swisseph';
import { ReadingInputError } from '../errors.ts';

const require = createRequire(import.meta.url);

export const EPHEMERIS_PATH = join(dirname(require.resolve('swisseph/package.json')), 'ephe');
swisseph.swe_set_ephe_path(EPHEMERIS_PATH);

/** Range covered by the bundled files (Julian Day, UT): 1800-01-01 to 2399-12-31. */
export const EPHEMERIS_RANGE = { fromYear: 1800, toYear: 2399 } as const;
/**
 * The files begin in the first hours of 1800-01-01 UT (the planets' file at 00:08, Chiron's at
 * 01:20, Pluto with its speed at 05:45): a birth on that morning east of Greenwich can be earlier.
 */
const FIRST_FULL_DAY_JD = 2_378_497.5; // 1800-01-02 00:00 UT

export const SE = {
  SUN: swisseph.SE_SUN,
  MOON: swisseph.SE_MOON,
  MERCURY: swisseph.SE_MERCURY,
  VENUS: swisseph.SE_VENUS,
  MARS: swisseph.SE_MARS,
  JUPITER: swisseph.SE_JUPITER,
  SATURN: swisseph.SE_SATURN,
  URANUS: swisseph.SE_URANUS,
  NEPTUNE: swisseph.SE_NEPTUNE,
  PLUTO: swisseph.SE_PLUTO,
  MEAN_NODE: swisseph.SE_MEAN_NODE,
  TRUE_NODE: swisseph.SE_TRUE_NODE,
  MEAN_APOG: swisseph.SE_MEAN_APOG,
  CHIRON: swisseph.SE_CHIRON,
} as const;

/** Apparent geocentric tropical positions from the Swiss Ephemeris files, with speeds. */
export const CALC_FLAGS = swisseph.SEFLG_SWIEPH | swisseph.SEFLG_SPEED;

export interface BodyPosition {
  longitude: number;
  latitude: number;
  distance: number;
  longitudeSpeed: number;
}

/** Julian Day (UT) of a Unix-epoch instant. UT1 is taken as UTC (they differ by < 0.9 s). */
export function julianDayUT(epochMs: number): number {
  return epochMs / 86_400_000 + 2_440_587.5;
}

export function calcBody(jdUT: number, body: number): BodyPosition {
  const result = swisseph.swe_calc_ut(jdUT, body, CALC_FLAGS);
  if ('error' in result && result.error) {
    throw new Error(`Swiss Ephemeris could not compute body ${body}: ${result.error}`);
  }
  const r = result as {
    longitude: number;
    latitude: number;
    distance: number;
    longitudeSpeed: number;
    rflag: number;
  };
  if ((r.rflag & swisseph.SEFLG_SWIEPH) === 0 && jdUT < FIRST_FULL_DAY_JD) {
    throw new ReadingInputError(
      'date_out_of_range',
      'The ephemeris begins on 1 January 1800 at about 06:00 UT, and this birth moment is earlier',
      'birthDate',
    );
  }
  if ((r.rflag & swisseph.SEFLG_SWIEPH) === 0) {
    // The library silently falls back to its analytical Moshier theory when a file is missing.
    throw new Error(`Swiss Ephemeris file for body ${body} not found in ${EPHEMERIS_PATH}`);
  }
  return {
    longitude: r.longitude,
    latitude: r.latitude,
    distance: r.distance,
    longitudeSpeed: r.longitudeSpeed,
  };
}

export interface HouseCusps {
  /** Twelve cusps, cusps[0] = first house = Ascendant, cusps[9] = tenth = Medium Coeli. */
  cusps: number[];
  ascendant: number;
  mc: number;
  armc: number;
}

/** swe_houses; null when the system cannot be computed there (Placidus in the polar circles). */
export function calcHouses(
  jdUT: number,
  latitude: number,
  longitude: number,
  system: string,
): HouseCusps | null {
  const result = swisseph.swe_houses(jdUT, latitude, longitude, system);
  if ('error' in result) return null;
  return { cusps: result.house, ascendant: result.ascendant, mc: result.mc, armc: result.armc };
}

export function swissEphemerisVersion(): string {
  return swisseph.swe_version();
}
