/**
 * Local civil time → UTC instant through an IANA zone's full history: before 1970 from the tz
 * database with `backzone` (`zoneHistory.ts`), from 1970 from the ICU time-zone data inside Node
 * (Intl.DateTimeFormat with timeZoneName 'longOffset'). Both keep local mean time (LMT) offsets
 * to the second (America/New_York before 1883-11-18 is -04:56:02), war time (US War Time
 * 1942-45, British Double Summer Time) and every daylight-saving rule.
 *
 * One rule for wall times a transition makes ambiguous or impossible, the same as JavaScript
 * Temporal's `disambiguation: 'compatible'`:
 * - ambiguous (the hour repeated when clocks fall back): the EARLIER instant, i.e. the first
 *   occurrence, still on the offset in force before the transition;
 * - non-existent (the hour skipped when clocks spring forward): the wall time is read with the
 *   offset in force before the gap, which lands it the gap's length later (02:30 in a one-hour
 *   gap becomes 03:30 on the new offset).
 */
import { ReadingInputError } from '../errors.ts';
import { historicOffsetSeconds, localMeanTimeUntil } from './zoneHistory.ts';

export type LocalTimeRule = 'unique' | 'ambiguous_earlier' | 'gap_shifted_forward';

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

export interface ResolvedInstant {
  /** The instant, in milliseconds since the Unix epoch (UTC). */
  epochMs: number;
  /** The zone's UTC offset at that instant, in seconds (east positive). */
  offsetSeconds: number;
  rule: LocalTimeRule;
  /** Other offsets the wall time could have had (the later reading of an ambiguous time). */
  alternativeOffsetsSeconds: number[];
  /** Length of the skipped interval when rule is 'gap_shifted_forward', else 0. */
  gapSeconds: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const lmtOffsets = new Map<string, number | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    } catch {
      throw new ReadingInputError(
        'invalid_timezone',
        `Unknown time zone '${timeZone}'`,
        'timezone',
      );
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True when the IANA name is known to this runtime's ICU data. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

const OFFSET_PATTERN = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** The zone's UTC offset (seconds east of Greenwich) at an instant. */
export function zoneOffsetSeconds(timeZone: string, epochMs: number): number {
  const formatter = formatterFor(timeZone); // refuses an unknown zone first
  const historic = historicOffsetSeconds(timeZone, epochMs);
  if (historic !== null) return historic;
  const parts = formatter.formatToParts(epochMs);
  let name = '';
  for (const part of parts) {
    if (part.type === 'timeZoneName') {
      name = part.value;
      break;
    }
  }
  const match = OFFSET_PATTERN.exec(name);
  if (!match) throw new Error(`Unexpected offset '${name}' from Intl for ${timeZone}`);
  if (!match[1]) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3] ?? 0) * 60 + Number(match[4] ?? 0);
  return match[1] === '-' ? -seconds : seconds;
}

/** "+05:30", "-04:56:02" (seconds only when non-zero). */
export function formatOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(offsetSeconds));
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const base = `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  return s ? `${base}:${String(s).padStart(2, '0')}` : base;
}

/** The wall-clock reading as if it were UTC, in ms (valid for any year, including < 100). */
export function wallClockMs(local: LocalDateTime): number {
  const d = new Date(0);
  d.setUTCFullYear(local.year, local.month - 1, local.day);
  d.setUTCHours(local.hour, local.minute, local.second ?? 0, 0);
  return d.getTime();
}

/**
 * Resolve a wall-clock time in `timeZone` to an instant with the documented rule for ambiguous
 * and skipped times. Looks at the offsets a day either side, so it assumes at most one
 * transition within ±24 h (true of every zone in the tz database in practice).
 */
export function resolveLocalTime(local: LocalDateTime, timeZone: string): ResolvedInstant {
  const wall = wallClockMs(local);
  const before = zoneOffsetSeconds(timeZone, wall - DAY_MS);
  const after = zoneOffsetSeconds(timeZone, wall + DAY_MS);
  const valid: number[] = [];
  for (const offset of before === after ? [before] : [before, after]) {
    if (zoneOffsetSeconds(timeZone, wall - offset * 1000) === offset) valid.push(offset);
  }
  if (valid.length === 1) {
    const offset = valid[0]!;
    return {
      epochMs: wall - offset * 1000,
      offsetSeconds: offset,
      rule: 'unique',
      alternativeOffsetsSeconds: [],
      gapSeconds: 0,
    };
  }
  if (valid.length === 2) {
    // Both readings exist: the earlier instant is the one with the larger offset.
    const earlier = Math.max(valid[0]!, valid[1]!);
    const later = Math.min(valid[0]!, valid[1]!);
    return {
      epochMs: wall - earlier * 1000,
      offsetSeconds: earlier,
      rule: 'ambiguous_earlier',
      alternativeOffsetsSeconds: [later],
      gapSeconds: 0,
    };
  }
  if (before === after) {
    // Two transitions within the window (never seen in practice): settle on a fixed point.
    let offset = zoneOffsetSeconds(timeZone, wall - before * 1000);
    offset = zoneOffsetSeconds(timeZone, wall - offset * 1000);
    return {
      epochMs: wall - offset * 1000,
      offsetSeconds: offset,
      rule: 'unique',
      alternativeOffsetsSeconds: [],
      gapSeconds: 0,
    };
  }
  // Skipped wall time: read it with the offset before the gap, landing the gap's length later.
  const epochMs = wall - before * 1000;
  const offsetSeconds = zoneOffsetSeconds(timeZone, epochMs);
  return {
    epochMs,
    offsetSeconds,
    rule: 'gap_shifted_forward',
    alternativeOffsetsSeconds: [],
    gapSeconds: offsetSeconds - before,
  };
}

/**
 * The zone's local mean time offset (that of its reference city), or null when the zone never
 * kept LMT (Etc/*, UTC).
 */
export function zoneLocalMeanTimeOffset(timeZone: string): number | null {
  let offset = lmtOffsets.get(timeZone);
  if (offset === undefined) {
    const until = localMeanTimeUntil(timeZone);
    if (until === undefined) {
      // A zone newer than the history file: its offset in 1800 if that is no whole quarter hour
      // (LMT offsets are the reference city's longitude / 15, to the second).
      const earliest = zoneOffsetSeconds(timeZone, Date.UTC(1800, 0, 1));
      offset = earliest % 900 === 0 ? null : earliest;
    } else offset = until === null ? null : zoneOffsetSeconds(timeZone, until - 1);
    lmtOffsets.set(timeZone, offset);
  }
  return offset;
}

/**
 * The day standard time began in the zone, on its own clock (YYYY-MM-DD; Berlin: 1893-04-01):
 * before it the zone kept local mean time. Null for a zone that never kept LMT. A legal "mean
 * time" with the offset of the LMT it replaced (Paris Mean Time from 1891, Dublin Mean Time from
 * 1880) is standard time.
 */
export function standardTimeSince(timeZone: string): string | null {
  formatterFor(timeZone);
  const until = localMeanTimeUntil(timeZone);
  if (until === undefined || until === null) return null;
  const offset = zoneOffsetSeconds(timeZone, until - 1);
  return new Date(until + offset * 1000).toISOString().slice(0, 10);
}

/** The zone kept local mean time at this instant (before its standard time). */
export function isLocalMeanTime(timeZone: string, epochMs: number): boolean {
  const until = localMeanTimeUntil(timeZone);
  if (until === undefined) {
    const lmt = zoneLocalMeanTimeOffset(timeZone);
    return lmt !== null && zoneOffsetSeconds(timeZone, epochMs) === lmt;
  }
  return until !== null && epochMs < until;
}

/** Local mean time of a longitude: 4 minutes of time per degree east, rounded to the second. */
export function localMeanTimeOffsetSeconds(longitude: number): number {
  return Math.round(longitude * 240);
}
