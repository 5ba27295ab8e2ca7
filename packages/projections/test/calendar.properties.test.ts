import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { financeCalendar } from '../src/index.ts';

/**
 * The finance calendar's months, against the zone's own clock (`Intl.DateTimeFormat`): months
 * meet end to end, each starts at the first instant whose local date is in it, and an instant's
 * month is the one whose range holds it, in every zone the runtime knows.
 */

const zones = ['UTC', ...Intl.supportedValuesOf('timeZone')];

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** An instant's local date in a zone, `YYYY-MM-DD` (the test's own reading of the clock). */
const localDate = (timeZone: string, at: number) => {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format.format(at);
};

const monthIndex = fc.integer({ min: 1970 * 12, max: 2100 * 12 - 1 });
const monthOfIndex = (index: number) =>
  `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
const HOUR = 3_600_000;

describe('The finance calendar', () => {
  it('starts each month at the first instant whose local date is in it, where the month before ends', () => {
    // Every month of a zone from 1970 to 2040: a clock change that skips midnight is rare.
    fc.assert(
      fc.property(fc.constantFrom(...zones), (timeZone) => {
        const calendar = financeCalendar(timeZone);
        for (let index = 1970 * 12; index < 2041 * 12; index++) {
          const month = monthOfIndex(index);
          const { from, to } = calendar.monthRange(month);
          expect(to).toBe(calendar.monthRange(monthOfIndex(index + 1)).from);
          expect(localDate(timeZone, Date.parse(from)), `${timeZone} ${month}`).toBe(`${month}-01`);
          expect(localDate(timeZone, Date.parse(from) - 1) < `${month}-01`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('puts every instant in the month whose range holds it', () => {
    // Instants anywhere, and instants within a day and a half of a month's start.
    const instant = fc.oneof(
      fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) - 1 }),
      fc
        .tuple(monthIndex, fc.integer({ min: -36 * HOUR, max: 36 * HOUR }))
        .map(([index, by]) => Date.UTC(Math.floor(index / 12), index % 12, 1) + by),
    );
    fc.assert(
      fc.property(fc.constantFrom(...zones), instant, (timeZone, at) => {
        const calendar = financeCalendar(timeZone);
        const iso = new Date(at).toISOString();
        const { from, to } = calendar.monthRange(calendar.monthOf(iso));
        expect(from <= iso && iso < to, `${iso} in ${from}…${to}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('has the months of Berlin, Kathmandu and St. John’s, and of Cairo where midnight was skipped', () => {
    const berlin = financeCalendar('Europe/Berlin');
    expect(berlin.monthRange('2026-01')).toEqual({
      from: '2025-12-31T23:00:00.000Z',
      to: '2026-01-31T23:00:00.000Z',
    });
    // Summer time from the last Sunday of March: April starts an hour earlier.
    expect(berlin.monthRange('2026-04').from).toBe('2026-03-31T22:00:00.000Z');
    expect(berlin.monthOf('2026-01-31T22:59:59.999Z')).toBe('2026-01');
    expect(berlin.monthOf('2026-01-31T23:30:00.000Z')).toBe('2026-02');
    // An instant written with an offset is the same instant.
    expect(berlin.monthOf('2026-02-01T00:30:00+01:00')).toBe('2026-02');
    expect(financeCalendar('Asia/Kathmandu').monthRange('2026-01').from).toBe(
      '2025-12-31T18:15:00.000Z',
    );
    expect(financeCalendar('America/St_Johns').monthRange('2026-01').from).toBe(
      '2026-01-01T03:30:00.000Z',
    );
    // Cairo's summer time began at midnight on 2014-08-01 (00:00 became 01:00): August starts then.
    expect(financeCalendar('Africa/Cairo').monthRange('2014-08').from).toBe(
      '2014-07-31T22:00:00.000Z',
    );
  });

  it('keeps UTC’s months as the text of the instant says', () => {
    const utc = financeCalendar('UTC');
    expect(utc.monthRange('2026-12')).toEqual({
      from: '2026-12-01T00:00:00.000Z',
      to: '2027-01-01T00:00:00.000Z',
    });
    expect(utc.monthOf('2026-01-31T23:30:00.000Z')).toBe('2026-01');
    expect(utc.monthOf('2026-02-01T00:30:00+01:00')).toBe('2026-01');
  });
});
