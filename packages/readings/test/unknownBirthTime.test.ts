import { describe, expect, it } from 'vitest';
import {
  ANGLE_KEYS,
  compatibilityFacts,
  compatibilityResult,
  computeNatalChart,
  HOUSE_KEYS,
  natalChartFacts,
  natalChartResult,
  offlineText,
  promptFor,
  ReadingInputError,
  UNKNOWN_TIME_NOON,
} from '../src/index.ts';

const jung = {
  firstName: 'Carl',
  lastName: 'Jung',
  birthDate: '1875-07-26',
  city: 'Kesswil',
  country: 'Switzerland',
  latitude: 47.5957,
  longitude: 9.3257,
  timezone: 'Europe/Zurich',
};
const moment = {
  date: '1990-03-21',
  latitude: 52.52,
  longitude: 13.405,
  timezone: 'Europe/Berlin',
};

describe('a chart without a birth time', () => {
  it('draws the planets for noon local time, with no Ascendant, Midheaven or houses', () => {
    const unknown = computeNatalChart({ ...moment, time: null });
    const noon = computeNatalChart({ ...moment, time: UNKNOWN_TIME_NOON });
    expect(UNKNOWN_TIME_NOON).toBe('12:00');
    expect(unknown.timeKnown).toBe(false);
    expect(unknown.houseSystem).toBeNull();
    expect(unknown.time.local).toBe('1990-03-21T12:00:00');
    expect(unknown.time.utc).toBe('1990-03-21T11:00:00Z');
    for (const key of [...ANGLE_KEYS, ...HOUSE_KEYS]) expect(unknown.chart[key]).toBeUndefined();
    for (const key of ['sun', 'moon', 'mercury', 'pluto', 'true_node', 'chiron'] as const) {
      expect(unknown.chart[key].abs_pos).toBe(noon.chart[key].abs_pos);
      expect(unknown.chart[key].house).toBeNull();
      expect(unknown.chart[key].house_name).toBeNull();
    }
    expect(unknown.aspects.some((a) => a.p1 === 'ascendant' || a.p2 === 'medium_coeli')).toBe(
      false,
    );
    // A known time keeps its angles and houses.
    expect(noon.timeKnown).toBe(true);
    expect(noon.chart.ascendant.house).toBe(1);
    expect(noon.moonRange).toBeNull();
  });

  it('states where the Moon went over the day, and both signs when it changed sign', () => {
    const { moonRange } = computeNatalChart({ ...moment, time: null });
    const moved = (moonRange!.end - moonRange!.start + 360) % 360;
    expect(moved).toBeGreaterThan(11);
    expect(moved).toBeLessThan(16);
    // 1875-07-26 (Jung's birthday): the Moon stayed in Taurus; the next day it entered Gemini.
    const jungChart = natalChartFacts({ ...jung, timeUnknown: true }).chart;
    expect(jungChart.moonRange!.signs).toEqual(['Taurus']);
    const nextDay = natalChartFacts({ ...jung, birthDate: '1875-07-27', timeUnknown: true });
    expect(nextDay.chart.moonRange!.signs).toEqual(['Taurus', 'Gemini']);
    expect(offlineText.natalChart(nextDay)).toContain('your Moon sign may be Taurus or Gemini');
  });

  it('says in the text what is missing and why, and reads no house', () => {
    const facts = natalChartFacts({ ...jung, timeUnknown: true });
    const text = offlineText.natalChart(facts);
    expect(text).toContain('birth time unknown; the chart is drawn for 12:00 local time');
    expect(text).toContain('The Ascendant, the Midheaven and the houses depend on the exact time');
    expect(text).toContain('it stayed in Taurus the whole day');
    // No point is read in a house ('Placed in the 5th house', '(…, 5th house)').
    expect(text).not.toContain('Placed in the');
    expect(text).not.toMatch(/\d(st|nd|rd|th) house\)/);
    expect(text).not.toContain('rising on the eastern horizon');
    const prompt = promptFor.natalChart(facts).user;
    expect(prompt).toContain('Birth time UNKNOWN');
    expect(prompt).not.toContain('House cusps');
    const result = natalChartResult(facts, text);
    expect(result.houseSystem).toBeNull();
    expect(result.birthInfo).toMatchObject({ birthTime: '12:00', timeUnknown: true });
    expect(result.moonRange!.signs).toEqual(['Taurus']);
  });

  it('needs a time unless it is said to be unknown', () => {
    expect(() => natalChartFacts({ ...jung })).toThrow(ReadingInputError);
    expect(() => natalChartFacts({ ...jung, birthTime: null, timeUnknown: false })).toThrow(
      /Birth time is required/,
    );
  });

  it('compatibility: either person without a time, the Ascendant contacts left out', () => {
    const ada = { ...jung, firstName: 'Ada', birthTime: '13:00', birthDate: '1990-12-10' };
    const facts = compatibilityFacts(ada, { ...jung, timeUnknown: true });
    expect(facts.person1.chart.timeKnown).toBe(true);
    expect(facts.person2.chart.timeKnown).toBe(false);
    expect(facts.aspects.some((a) => a.p2 === 'ascendant' || a.p2 === 'medium_coeli')).toBe(false);
    expect(facts.score.aspects.some((a) => a.p2 === 'ascendant')).toBe(false);
    const text = offlineText.compatibility(facts);
    expect(text).toContain('Without Carl’s birth time, that chart is drawn for noon local time');
    const result = compatibilityResult(facts, text);
    expect(result.person2).toMatchObject({ timeUnknown: true, birthTime: '12:00' });
    expect(result.charts.person2.ascendant).toBeUndefined();
  });
});
