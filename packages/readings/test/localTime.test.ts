import { describe, expect, it } from 'vitest';
import {
  formatOffset,
  ReadingInputError,
  resolveBirthTime,
  resolveLocalTime,
  standardTimeSince,
  zoneLocalMeanTimeOffset,
  zoneOffsetSeconds,
} from '../src/index.ts';
import { zoneHistoryVersion } from '../src/time/zoneHistory.ts';

const hms = (h: number, m = 0, s = 0) => h * 3600 + m * 60 + s;
const iso = (ms: number) => new Date(ms).toISOString();
const local = (date: string, time: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute };
};

describe('Zone history (tz database with backzone before 1970, ICU after)', () => {
  it('local mean time before standard time: New York 1880 is −4:56:02, to the second', () => {
    expect(zoneOffsetSeconds('America/New_York', Date.UTC(1880, 0, 1, 12))).toBe(-hms(4, 56, 2));
    expect(zoneLocalMeanTimeOffset('America/New_York')).toBe(-hms(4, 56, 2));
    const r = resolveLocalTime(local('1880-01-01', '12:00'), 'America/New_York');
    expect(iso(r.epochMs)).toBe('1880-01-01T16:56:02.000Z');
    expect(formatOffset(r.offsetSeconds)).toBe('-04:56:02');
  });

  it('standard time from 1883-11-18 noon: EST −5:00', () => {
    expect(zoneOffsetSeconds('America/New_York', Date.UTC(1884, 0, 1))).toBe(-hms(5));
  });

  it('LMT of the birthplace by default, the zone’s LMT on request', () => {
    const moment = {
      date: '1880-01-01',
      time: '12:00',
      latitude: 40.71427,
      longitude: -74.00597,
      timezone: 'America/New_York',
    };
    // −74.00597° × 4 min/° = −4:56:01.4 → −4:56:01
    expect(resolveBirthTime(moment)).toMatchObject({
      utc: '1880-01-01T16:56:01Z',
      utcOffset: '-04:56:01',
      offsetSource: 'local_mean_time_of_place',
    });
    expect(resolveBirthTime({ ...moment, localMeanTime: 'zone' })).toMatchObject({
      utc: '1880-01-01T16:56:02Z',
      utcOffset: '-04:56:02',
      offsetSource: 'zone',
    });
  });

  it('a historical standard time that is not LMT is used as is (Madras time, Kolkata 1900)', () => {
    const t = resolveBirthTime({
      date: '1900-06-01',
      time: '12:00',
      latitude: 22.56263,
      longitude: 88.36304,
      timezone: 'Asia/Kolkata',
    });
    expect(t.offsetSource).toBe('zone');
    expect(t.utcOffset).toBe('+05:21:10');
  });

  it('British Double Summer Time 1944: +2 in June, +1 (summer time kept) in January', () => {
    expect(zoneOffsetSeconds('Europe/London', Date.UTC(1944, 5, 6, 12))).toBe(hms(2));
    expect(zoneOffsetSeconds('Europe/London', Date.UTC(1944, 0, 15, 12))).toBe(hms(1));
    const r = resolveLocalTime(local('1944-06-06', '12:00'), 'Europe/London');
    expect(iso(r.epochMs)).toBe('1944-06-06T10:00:00.000Z');
  });

  it('US War Time: New York on −4 in January 1943', () => {
    const r = resolveLocalTime(local('1943-01-15', '12:00'), 'America/New_York');
    expect(r.offsetSeconds).toBe(-hms(4));
    expect(r.rule).toBe('unique');
  });
});

describe('The rule for clock changes (as Temporal’s "compatible")', () => {
  it('non-existent time (spring forward): shifted forward by the gap', () => {
    // New York, 2021-03-14: 02:00 EST → 03:00 EDT; 02:30 never happened.
    const r = resolveLocalTime(local('2021-03-14', '02:30'), 'America/New_York');
    expect(r.rule).toBe('gap_shifted_forward');
    expect(r.gapSeconds).toBe(3600);
    expect(iso(r.epochMs)).toBe('2021-03-14T07:30:00.000Z'); // = 03:30 EDT
    expect(r.offsetSeconds).toBe(-hms(4));
  });

  it('ambiguous time (fall back): the earlier instant, i.e. the first occurrence', () => {
    // New York, 2021-11-07: 02:00 EDT → 01:00 EST; 01:30 happened twice.
    const r = resolveLocalTime(local('2021-11-07', '01:30'), 'America/New_York');
    expect(r.rule).toBe('ambiguous_earlier');
    expect(iso(r.epochMs)).toBe('2021-11-07T05:30:00.000Z'); // 01:30 EDT
    expect(r.alternativeOffsetsSeconds).toEqual([-hms(5)]);
    const birth = resolveBirthTime({
      date: '2021-11-07',
      time: '01:30',
      latitude: 40.7,
      longitude: -74,
      timezone: 'America/New_York',
    });
    expect(birth).toMatchObject({
      rule: 'ambiguous_earlier',
      utc: '2021-11-07T05:30:00Z',
      alternativeUtc: '2021-11-07T06:30:00Z',
    });
  });

  it('southern hemisphere and Europe follow the same rule', () => {
    // Sydney, 2024-04-07: 03:00 AEDT → 02:00 AEST; 02:30 is ambiguous.
    const syd = resolveLocalTime(local('2024-04-07', '02:30'), 'Australia/Sydney');
    expect(syd.rule).toBe('ambiguous_earlier');
    expect(iso(syd.epochMs)).toBe('2024-04-06T15:30:00.000Z');
    // London, 2024-03-31: 01:00 GMT → 02:00 BST; 01:30 becomes 02:30 BST.
    const lon = resolveLocalTime(local('2024-03-31', '01:30'), 'Europe/London');
    expect(lon.rule).toBe('gap_shifted_forward');
    expect(iso(lon.epochMs)).toBe('2024-03-31T01:30:00.000Z');
  });

  it('ordinary times are unique; half-hour zones work', () => {
    const r = resolveLocalTime(local('2000-01-01', '00:00'), 'Asia/Kolkata');
    expect(r).toMatchObject({ rule: 'unique', offsetSeconds: hms(5, 30), gapSeconds: 0 });
    expect(iso(r.epochMs)).toBe('1999-12-31T18:30:00.000Z');
  });

  it('an unknown zone is an input error', () => {
    expect(() => resolveLocalTime(local('2000-01-01', '00:00'), 'Nowhere/City')).toThrow(
      ReadingInputError,
    );
  });
});

describe('Before standard time: the birthplace’s local mean time (astro.com’s rule)', () => {
  const at = (date: string, latitude: number, longitude: number, timezone: string) =>
    resolveBirthTime({ date, time: '12:00', latitude, longitude, timezone });

  it('reads the history before 1970 from the tz database with backzone', () => {
    expect(zoneHistoryVersion()).toMatch(/^20\d\d[a-z]$/);
    // ICU, without backzone, has Europe/Amsterdam as Brussels: +0:00 in 1900.
    expect(zoneOffsetSeconds('Europe/Amsterdam', Date.UTC(1900, 0, 1))).toBe(hms(0, 19, 32));
    // Stockholm kept Swedish mean time, +1:00:14, from 1879 to 1900 (ICU: Berlin's LMT).
    expect(zoneOffsetSeconds('Europe/Stockholm', Date.UTC(1890, 5, 1))).toBe(hms(1, 0, 14));
    // From 1970 on, ICU and the history agree.
    expect(zoneOffsetSeconds('Europe/Amsterdam', Date.UTC(1969, 11, 31, 23))).toBe(hms(1));
    expect(zoneOffsetSeconds('Europe/Amsterdam', Date.UTC(1970, 0, 1, 1))).toBe(hms(1));
  });

  it('standard time began when the zone left LMT, even where the offset stayed the same', () => {
    expect(standardTimeSince('Europe/Berlin')).toBe('1893-04-01');
    // Paris Mean Time (1891) was legal time with the offset of Paris' LMT.
    expect(standardTimeSince('Europe/Paris')).toBe('1891-03-16');
    expect(standardTimeSince('Europe/Amsterdam')).toBe('1835-01-01');
    expect(standardTimeSince('UTC')).toBeNull();
    expect(zoneLocalMeanTimeOffset('Europe/Paris')).toBe(hms(0, 9, 21));
  });

  it('Marseille 1885 (before Paris Mean Time): Marseille’s own LMT, 5.37° E = +0:21:29', () => {
    expect(at('1885-01-01', 43.29695, 5.38107, 'Europe/Paris')).toMatchObject({
      offsetSource: 'local_mean_time_of_place',
      utcOffset: '+00:21:31',
      utc: '1885-01-01T11:38:29Z',
    });
  });

  it('Marseille 1900: Paris Mean Time, the legal time then, not Marseille’s LMT', () => {
    expect(at('1900-01-01', 43.29695, 5.38107, 'Europe/Paris')).toMatchObject({
      offsetSource: 'zone',
      utcOffset: '+00:09:21',
    });
  });

  it('Groningen 1900: Amsterdam time, the Netherlands’ legal time; 1830: Groningen’s LMT', () => {
    expect(at('1900-01-01', 53.21917, 6.56667, 'Europe/Amsterdam')).toMatchObject({
      offsetSource: 'zone',
      utcOffset: '+00:19:32',
    });
    expect(at('1830-01-01', 53.21917, 6.56667, 'Europe/Amsterdam')).toMatchObject({
      offsetSource: 'local_mean_time_of_place',
      utcOffset: '+00:26:16',
    });
  });

  it('Dublin 1900 keeps Dublin Mean Time in winter as in summer (no LMT/DST mix)', () => {
    const winter = at('1900-01-15', 53.33306, -6.24889, 'Europe/Dublin');
    const summer = at('1900-07-15', 53.33306, -6.24889, 'Europe/Dublin');
    expect([winter.offsetSource, summer.offsetSource]).toEqual(['zone', 'zone']);
    expect([winter.utcOffset, summer.utcOffset]).toEqual(['-00:25:21', '-00:25:21']);
  });
});
