import { describe, expect, it } from 'vitest';
import {
  angularSeparation,
  computeNatalChart,
  HOUSE_KEYS,
  normalizeDegrees,
  POINT_KEYS,
  ReadingInputError,
} from '../src/index.ts';

/** Greenwich, UTC: the instant given is the instant used. */
function sunAt(date: string, time: string): number {
  return computeNatalChart({ date, time, latitude: 51.4769, longitude: 0, timezone: 'UTC' }).chart
    .sun.abs_pos;
}

/** Signed difference a − b folded into (−180, 180]. */
function delta(a: number, b: number): number {
  const d = normalizeDegrees(a - b);
  return d > 180 ? d - 360 : d;
}

const rad = Math.PI / 180;

describe('Sun positions against independent references', () => {
  it('J2000.0 (2000-01-01 12:00 TT = 11:58:55.8 UTC): Meeus low-accuracy apparent longitude', () => {
    // Meeus, Astronomical Algorithms ch. 25, computed here independently of the ephemeris:
    // T = 0: L0 = 280.46646° (the mean longitude the brief quotes as ≈ 280.46°),
    // M = 357.52911°, C = 1.914602 sin M + 0.019993 sin 2M + 0.000289 sin 3M,
    // apparent λ = L0 + C − 0.00569 − 0.00478 sin Ω with Ω = 125.04°  ⇒ λ ≈ 280.3725°.
    const M = 357.52911 * rad;
    const C = 1.914602 * Math.sin(M) + 0.019993 * Math.sin(2 * M) + 0.000289 * Math.sin(3 * M);
    const apparent = 280.46646 + C - 0.00569 - 0.00478 * Math.sin(125.04 * rad);
    const sun = sunAt('2000-01-01', '11:58:56');
    expect(Math.abs(delta(sun, apparent))).toBeLessThan(0.01); // the formula is good to ~0.01°
    expect(Math.abs(delta(sun, 280.46))).toBeLessThan(0.1); // mean vs apparent differ by ~0.09°
  });

  it('Meeus example 25.b: 1992-10-13.0 TD, apparent λ = 199°54\'21.818" (VSOP87)', () => {
    // 0h TD = 23:59:01 UT the day before (ΔT ≈ 59 s in 1992).
    const sun = sunAt('1992-10-12', '23:59:01');
    expect(Math.abs(delta(sun, 199 + 54 / 60 + 21.818 / 3600))).toBeLessThan(0.0005);
  });

  // Equinox and solstice instants (UTC, to the minute) as published by the US Naval Observatory.
  it.each([
    ['2000-03-20', '07:35', 0],
    ['2000-06-21', '01:48', 90],
    ['2000-09-22', '17:28', 180],
    ['2000-12-21', '13:37', 270],
    ['2024-03-20', '03:06', 0],
    ['2024-06-20', '20:51', 90],
    ['2024-09-22', '12:44', 180],
    ['2024-12-21', '09:21', 270],
  ])('%s %s UTC: the Sun is at %i°', (date, time, longitude) => {
    // The Sun moves 0.00068° per minute: a rounding to the minute is within 0.001°.
    expect(Math.abs(delta(sunAt(date, time), longitude))).toBeLessThan(0.001);
  });

  it('total solar eclipse 2017-08-21: Sun and Moon conjunct at 28°53′ Leo at 18:30 UTC', () => {
    const { chart } = computeNatalChart({
      date: '2017-08-21',
      time: '18:30',
      latitude: 36.97,
      longitude: -87.67,
      timezone: 'UTC',
    });
    expect(Math.abs(delta(chart.sun.abs_pos, 148 + 53 / 60))).toBeLessThan(0.02);
    expect(angularSeparation(chart.sun.abs_pos, chart.moon.abs_pos)).toBeLessThan(0.05);
  });
});

describe('Albert Einstein, 1879-03-14 11:30 LMT, Ulm (Astro-Databank, Rodden rating AA)', () => {
  // Ulm 48°24'N 9°59'E: local mean time is UT+0:39:58, so 11:30 LMT = 10:50:02 UT.
  const einstein = computeNatalChart({
    date: '1879-03-14',
    time: '11:30',
    latitude: 48.39841,
    longitude: 9.99155,
    timezone: 'Europe/Berlin',
  });
  const dms = (sign: number, deg: number, min: number) => sign * 30 + deg + min / 60;

  it('uses the local mean time of Ulm, not Berlin', () => {
    expect(einstein.time.offsetSource).toBe('local_mean_time_of_place');
    expect(einstein.time.utc).toBe('1879-03-14T10:50:02Z');
    expect(einstein.time.zoneOffsetSeconds).toBe(53 * 60 + 28); // Berlin LMT +0:53:28
  });

  it.each([
    ['sun', dms(11, 23, 30), 0.03], // 23°30' Pisces
    ['moon', dms(8, 14, 32), 0.1], // 14°32' Sagittarius
    ['mercury', dms(0, 3, 9), 0.05],
    ['venus', dms(0, 16, 59), 0.05],
    ['mars', dms(9, 26, 55), 0.05],
    ['jupiter', dms(10, 27, 29), 0.05],
    ['saturn', dms(0, 4, 11), 0.05],
    ['uranus', dms(5, 1, 17), 0.05],
    ['neptune', dms(1, 7, 52), 0.05],
    ['pluto', dms(1, 24, 44), 0.05],
    ['ascendant', dms(3, 11, 38), 0.15], // 11°38' Cancer; 0.15° ≈ 40 s of time
    ['medium_coeli', dms(11, 12, 50), 0.15], // 12°50' Pisces
  ] as const)('%s at the published longitude', (key, expected, tolerance) => {
    expect(Math.abs(delta(einstein.chart[key].abs_pos, expected))).toBeLessThan(tolerance);
  });

  it('signs, houses and retrograde flags', () => {
    const c = einstein.chart;
    expect([c.sun.sign, c.moon.sign, c.ascendant.sign]).toEqual([
      'Pisces',
      'Sagittarius',
      'Cancer',
    ]);
    expect(c.sun.house).toBe(10);
    expect(c.uranus.retrograde).toBe(true);
    expect(c.sun.retrograde).toBe(false);
    expect(c.sun.position).toBeCloseTo(23.5, 1);
  });
});

describe('Angles against the spherical-astronomy formulas', () => {
  // Independent check of Ascendant and MC: Greenwich mean sidereal time (Meeus 12.4), mean
  // obliquity, MC = atan2(sin RAMC, cos RAMC cos ε), ASC = atan2(cos RAMC, −(sin RAMC cos ε +
  // tan φ sin ε)). Nutation is ignored here, hence the 0.02° tolerance.
  function angles(epochMs: number, lat: number, lon: number) {
    const jd = epochMs / 86_400_000 + 2_440_587.5;
    const T = (jd - 2_451_545) / 36_525;
    const gmst = 280.46061837 + 360.98564736629 * (jd - 2_451_545) + 0.000387933 * T * T;
    const ramc = normalizeDegrees(gmst + lon) * rad;
    const eps = (23.439291 - 0.0130042 * T) * rad;
    const mc = normalizeDegrees(Math.atan2(Math.sin(ramc), Math.cos(ramc) * Math.cos(eps)) / rad);
    const asc = normalizeDegrees(
      Math.atan2(
        Math.cos(ramc),
        -(Math.sin(ramc) * Math.cos(eps) + Math.tan(lat * rad) * Math.sin(eps)),
      ) / rad,
    );
    return { asc, mc };
  }

  it.each([
    ['London', '2024-06-01', '12:00', 51.50853, -0.12574],
    ['Sydney', '1990-01-15', '03:20', -33.86785, 151.20732],
    ['Quito', '2010-09-09', '21:45', -0.22985, -78.52495],
    ['Anchorage', '1975-11-30', '08:05', 61.21806, -149.90028],
  ])('%s', (_name, date, time, latitude, longitude) => {
    const chart = computeNatalChart({ date, time, latitude, longitude, timezone: 'UTC' });
    const expected = angles(Date.parse(`${date}T${time}:00Z`), latitude, longitude);
    expect(Math.abs(delta(chart.chart.ascendant.abs_pos, expected.asc))).toBeLessThan(0.02);
    expect(Math.abs(delta(chart.chart.medium_coeli.abs_pos, expected.mc))).toBeLessThan(0.02);
  });
});

describe('Chart shape and conventions', () => {
  const chart = computeNatalChart({
    date: '1990-07-04',
    time: '14:20',
    latitude: 40.71427,
    longitude: -74.00597,
    timezone: 'America/New_York',
  });

  it('has every point and house the contract names, longitudes in [0, 360)', () => {
    for (const key of POINT_KEYS) {
      const p = chart.chart[key];
      expect(typeof p.name).toBe('string');
      expect(typeof p.retrograde).toBe('boolean');
      expect(p.abs_pos).toBeGreaterThanOrEqual(0);
      expect(p.abs_pos).toBeLessThan(360);
      expect(p.house).toBeGreaterThanOrEqual(1);
      expect(p.house).toBeLessThanOrEqual(12);
    }
    for (const key of HOUSE_KEYS) {
      expect(chart.chart[key].abs_pos).toBeGreaterThanOrEqual(0);
      expect(chart.chart[key].abs_pos).toBeLessThan(360);
    }
    expect(Object.keys(chart.chart)).toEqual([...POINT_KEYS, ...HOUSE_KEYS]);
    expect(chart.chart.sun.name).toBe('Sun');
  });

  it('Ascendant is the first cusp, MC the tenth; neither is ever retrograde', () => {
    expect(chart.chart.ascendant.abs_pos).toBe(chart.chart.first_house.abs_pos);
    expect(chart.chart.medium_coeli.abs_pos).toBe(chart.chart.tenth_house.abs_pos);
    expect(chart.chart.ascendant.retrograde).toBe(false);
    expect(chart.chart.medium_coeli.retrograde).toBe(false);
    expect(chart.chart.ascendant.house).toBe(1);
  });

  it('opposite Placidus cusps are 180° apart', () => {
    for (let i = 0; i < 6; i++) {
      const a = chart.chart[HOUSE_KEYS[i]!].abs_pos;
      const b = chart.chart[HOUSE_KEYS[i + 6]!].abs_pos;
      expect(Math.abs(delta(b, a + 180))).toBeLessThan(1e-9);
    }
    expect(chart.houseSystem).toMatchObject({ name: 'Placidus', id: 'P', fallback: false });
  });

  it('south nodes are the north nodes + 180° with the north node’s retrograde flag', () => {
    for (const [south, north] of [
      ['mean_south_node', 'mean_node'],
      ['true_south_node', 'true_node'],
    ] as const) {
      expect(
        Math.abs(delta(chart.chart[south].abs_pos, chart.chart[north].abs_pos + 180)),
      ).toBeLessThan(1e-9);
      expect(chart.chart[south].retrograde).toBe(chart.chart[north].retrograde);
    }
    expect(chart.chart.mean_node.retrograde).toBe(true); // the mean node always moves backwards
  });

  it('retrograde means negative longitude speed (Mercury retrograde on 2023-05-01)', () => {
    const c = computeNatalChart({
      date: '2023-05-01',
      time: '12:00',
      latitude: 0,
      longitude: 0,
      timezone: 'UTC',
    });
    expect(c.chart.mercury.speed).toBeLessThan(0);
    expect(c.chart.mercury.retrograde).toBe(true);
    expect(c.chart.venus.retrograde).toBe(false);
    for (const key of POINT_KEYS) expect(c.chart[key].retrograde).toBe(c.chart[key].speed < 0);
  });

  it('computes Chiron and Lilith from the bundled files', () => {
    expect(chart.chart.chiron.abs_pos).toBeGreaterThan(0);
    expect(chart.chart.mean_lilith.abs_pos).toBeGreaterThan(0);
  });

  it('lists major aspects with exact orbs within the allowed orb, tightest first', () => {
    const orbs = { conjunction: 10, opposition: 10, trine: 8, sextile: 6, square: 5 };
    expect(chart.aspects.length).toBeGreaterThan(5);
    let previous = 0;
    for (const a of chart.aspects) {
      expect(a.orb).toBeLessThanOrEqual(orbs[a.aspect]);
      expect(a.orb).toBeCloseTo(
        Math.abs(angularSeparation(a.p1_abs_pos, a.p2_abs_pos) - a.aspect_degrees),
        9,
      );
      expect(a.orb).toBeGreaterThanOrEqual(previous);
      previous = a.orb;
      expect(a.p1 === 'mean_node' && a.p2 === 'true_node').toBe(false);
    }
  });
});

describe('Polar latitudes', () => {
  it('Placidus fails inside the polar circle; Porphyry is used and reported', () => {
    const tromso = computeNatalChart({
      date: '1985-01-10',
      time: '10:00',
      latitude: 69.6489,
      longitude: 18.95508,
      timezone: 'Europe/Oslo',
    });
    expect(tromso.houseSystem).toMatchObject({
      requested: 'Placidus',
      name: 'Porphyry',
      id: 'O',
      fallback: true,
    });
    // Porphyry: each quadrant trisected between the angles.
    const c = tromso.chart;
    const mc = c.tenth_house.abs_pos;
    const quadrant = normalizeDegrees(c.first_house.abs_pos - mc);
    expect(Math.abs(delta(c.eleventh_house.abs_pos, mc + quadrant / 3))).toBeLessThan(1e-6);
    expect(Math.abs(delta(c.twelfth_house.abs_pos, mc + (2 * quadrant) / 3))).toBeLessThan(1e-6);
  });

  it('just south of the polar circle Placidus still works', () => {
    const c = computeNatalChart({
      date: '1985-01-10',
      time: '10:00',
      latitude: 64.1355,
      longitude: -21.89541,
      timezone: 'Atlantic/Reykjavik',
    });
    expect(c.houseSystem.name).toBe('Placidus');
  });
});

describe('The range of the bundled ephemeris files (1800–2399)', () => {
  it('computes a chart on the files’ first day and on their last', () => {
    const first = computeNatalChart({
      date: '1800-01-01',
      time: '12:00',
      latitude: 51.5,
      longitude: -0.12,
      timezone: 'Europe/London',
    });
    expect(first.time.offsetSource).toBe('local_mean_time_of_place');
    expect(first.chart.sun.sign).toBe('Capricorn');
    expect(first.chart.pluto.abs_pos).toBeGreaterThan(0);
    const last = computeNatalChart({ ...first.location, date: '2399-12-31', time: '12:00' });
    expect(last.chart.sun.sign).toBe('Capricorn');
  });
});

describe('Input validation', () => {
  const base = { date: '1990-01-01', time: '12:00', latitude: 0, longitude: 0, timezone: 'UTC' };
  it.each([
    [{ date: '1990-02-30' }, 'invalid_date'],
    [{ date: '01/02/1990' }, 'invalid_date'],
    [{ time: '24:10' }, 'invalid_time'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'invalid_timezone'],
    [{ latitude: 91 }, 'invalid_latitude'],
    [{ date: '1700-01-01' }, 'date_out_of_range'],
    [{ date: '1799-12-31' }, 'date_out_of_range'],
    // Tokyo's midnight on 1800-01-01 is 14:41 UT the day before, ahead of the files.
    [
      { date: '1800-01-01', time: '00:00', longitude: 139.69, timezone: 'Asia/Tokyo' },
      'date_out_of_range',
    ],
  ])('%o → %s', (patch, code) => {
    try {
      computeNatalChart({ ...base, ...patch });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ReadingInputError);
      expect((error as ReadingInputError).code).toBe(code);
    }
  });
});
