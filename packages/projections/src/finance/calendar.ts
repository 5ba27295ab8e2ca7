/**
 * The finance calendar: the months of one IANA time zone (`FINANCE_TIME_ZONE`, default UTC). A
 * month `YYYY-MM` is the half-open range of instants from the first one whose local date is in
 * the month up to the first one whose local date is in the next: in Europe/Berlin, `2026-01` is
 * `2025-12-31T23:00:00.000Z` up to `2026-01-31T23:00:00.000Z`. Where a clock change skips
 * midnight, the month starts at the change.
 *
 * An instant's month is found by its range, never by formatting the instant: each month's range
 * is worked out once (by `Intl.DateTimeFormat`) and kept, and a replay then only compares text.
 */

export interface MonthRange {
  /** The month's first instant (canonical ISO, UTC). */
  from: string;
  /** The next month's first instant: not in the month. */
  to: string;
}

export interface FinanceCalendar {
  readonly timeZone: string;
  /** `[from, to)` of a `YYYY-MM` month. */
  monthRange(month: string): MonthRange;
  /** The `YYYY-MM` month an instant (ISO 8601) falls in. */
  monthOf(instant: string): string;
  /** The local date of an instant, `YYYY-MM-DD` (a journal's transaction date). */
  dayOf(instant: string): string;
}

/** Zones change their offset only on a quarter of an hour (since 1970), so offsets are kept by it. */
const QUARTER_MS = 900_000;

const HOUR_MS = 3_600_000;
/** Farther than any zone's offset from UTC (at most 14 hours since 1970). */
const REACH_MS = 16 * HOUR_MS;

/** Months counted from year 0 (`year * 12 + month − 1`), and back to `YYYY-MM`. */
const indexOf = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthAt = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The ledger's canonical instants (`2026-01-31T23:30:00.000Z`) are compared as text. */
const canonical = (instant: string) =>
  instant.length === 24 && instant.charCodeAt(23) === 90 /* Z */
    ? instant
    : new Date(instant).toISOString();

/** The zone's offset from UTC at an instant (ms; a whole number of seconds). */
function offsetFinder(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (at: number) => {
    const field: Record<string, number> = {};
    for (const { type, value } of format.formatToParts(at)) field[type] = Number(value);
    const local = Date.UTC(
      field.year!,
      field.month! - 1,
      field.day!,
      field.hour!,
      field.minute!,
      field.second!,
    );
    return local - Math.floor(at / 1000) * 1000;
  };
}

/**
 * The first instant whose local time is `midnight` (a local wall time written as UTC ms) or
 * later. Around it the offset changes at most once: before the change local time is
 * `t + before`, after it `t + after`.
 */
function firstInstantFrom(midnight: number, offsetAt: (at: number) => number) {
  let early = midnight - REACH_MS;
  let late = midnight + REACH_MS;
  const before = offsetAt(early);
  const after = offsetAt(late);
  if (before === after) return midnight - before;
  // The change: the first whole second with the new offset.
  while (late - early > 1000) {
    const middle = early + Math.floor((late - early) / 2000) * 1000;
    if (offsetAt(middle) === before) early = middle;
    else late = middle;
  }
  const change = late;
  if (midnight - before < change) return midnight - before;
  // Midnight came after the change, or the change skipped over it.
  return Math.max(change, midnight - after);
}

function zonedCalendar(timeZone: string): FinanceCalendar {
  const offsetAt = offsetFinder(timeZone);
  // The offset of the last quarter asked: a replay asks in time order, so it is mostly that one.
  let quarter = Number.NaN;
  let offset = 0;
  const starts = new Map<number, string>();
  const startOf = (index: number) => {
    let start = starts.get(index);
    if (start === undefined) {
      const midnight = Date.UTC(Math.floor(index / 12), index % 12, 1);
      start = new Date(firstInstantFrom(midnight, offsetAt)).toISOString();
      starts.set(index, start);
    }
    return start;
  };
  return {
    timeZone,
    monthRange: (month) => {
      const index = indexOf(month);
      return { from: startOf(index), to: startOf(index + 1) };
    },
    monthOf: (instant) => {
      const at = canonical(instant);
      // The zone's month is the UTC month, the one before or the one after.
      const index = indexOf(at);
      if (at < startOf(index)) return monthAt(index - 1);
      if (at >= startOf(index + 1)) return monthAt(index + 1);
      return monthAt(index);
    },
    dayOf: (instant) => {
      const at = Date.parse(instant);
      if (Math.floor(at / QUARTER_MS) !== quarter) {
        quarter = Math.floor(at / QUARTER_MS);
        offset = offsetAt(at);
      }
      return new Date(at + offset).toISOString().slice(0, 10);
    },
  };
}

/** UTC's months need no zone data: an instant's month is its text's first seven characters. */
const utcCalendar = (timeZone: string): FinanceCalendar => ({
  timeZone,
  monthRange: (month) => {
    const index = indexOf(month);
    const startOf = (i: number) => new Date(Date.UTC(Math.floor(i / 12), i % 12, 1)).toISOString();
    return { from: startOf(index), to: startOf(index + 1) };
  },
  monthOf: (instant) => canonical(instant).slice(0, 7),
  dayOf: (instant) => canonical(instant).slice(0, 10),
});

const calendars = new Map<string, FinanceCalendar>();

/**
 * The calendar of a time zone, kept for the process (its months' ranges with it). Throws a
 * RangeError for a zone the runtime does not know (settings are checked by `timeZoneSchema`).
 */
export function financeCalendar(timeZone = 'UTC'): FinanceCalendar {
  let calendar = calendars.get(timeZone);
  if (!calendar) {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
    calendar = resolved === 'UTC' ? utcCalendar(timeZone) : zonedCalendar(timeZone);
    calendars.set(timeZone, calendar);
  }
  return calendar;
}
