/**
 * Time zones before 1970 from the tz database WITH `backzone` (`data/zone-history.txt`, written
 * by `scripts/zoneHistory.ts`). Node's ICU data lacks `backzone`, so before 1970 it gives
 * merged zones another country's history (Europe/Amsterdam as Brussels: +0:00 in 1900 instead
 * of Amsterdam time, +0:19:32) and cannot tell local mean time (LMT) from a legal mean time
 * with the same offset (Paris Mean Time 1891–1911). From 1970 on ICU is used: merged zones
 * agree from then on, and ICU follows current rule changes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface History {
  /** End of local mean time (ms since the epoch); null when the zone never kept LMT. */
  lmtUntil: number | null;
  /** Offset (s) before `times[0]`, then `offsets[i]` from `times[i]` (ms) until the next. */
  initial: number;
  times: number[];
  offsets: number[];
}

let histories: Map<string, History> | null = null;
let dataVersion = '';

function load(): Map<string, History> {
  if (histories) return histories;
  // Through the package's exports: the API's bundle (services/api/dist) is not beside it.
  const path = createRequire(import.meta.url).resolve('@astra/readings/data/zone-history.txt');
  const text = readFileSync(path, 'utf8');
  const map = new Map<string, History>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      dataVersion = /tzdata (\S+)/.exec(line)?.[1] ?? dataVersion;
      continue;
    }
    if (!line) continue;
    const [zone, lmtUntil, initial, ...transitions] = line.split(' ');
    const history: History = {
      lmtUntil: lmtUntil === '-' ? null : Number(lmtUntil) * 1000,
      initial: Number(initial),
      times: [],
      offsets: [],
    };
    for (const transition of transitions) {
      const [time, offset] = transition.split(':');
      history.times.push(Number(time) * 1000);
      history.offsets.push(Number(offset));
    }
    map.set(zone!, history);
  }
  histories = map;
  return map;
}

/** The tz database version of the history before 1970 (for the docs and tests). */
export function zoneHistoryVersion(): string {
  load();
  return dataVersion;
}

/** The zone's offset (s) at an instant before 1970, or null: not before 1970, or unknown zone. */
export function historicOffsetSeconds(timeZone: string, epochMs: number): number | null {
  if (epochMs >= 0) return null;
  const history = load().get(timeZone);
  if (!history) return null;
  // The last transition at or before the instant.
  let low = 0;
  let high = history.times.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (history.times[middle]! <= epochMs) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found < 0 ? history.initial : history.offsets[found]!;
}

/**
 * When the zone left local mean time for a standard (or legal mean) time, in ms since the
 * epoch: null when the zone has no LMT (UTC, Etc/*), undefined when the zone is unknown here.
 */
export function localMeanTimeUntil(timeZone: string): number | null | undefined {
  const history = load().get(timeZone);
  return history ? history.lmtUntil : undefined;
}
