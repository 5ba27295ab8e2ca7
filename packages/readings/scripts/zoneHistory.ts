/**
 * Writes `packages/readings/data/zone-history.txt`: every time zone's history before 1970, from
 * a compiled tz database that was built WITH `backzone` (Debian's `tzdata` is; check
 * `/usr/share/zoneinfo/tzdata.zi`, whose second line names `backzone`).
 *
 *   npx tsx packages/readings/scripts/zoneHistory.ts [/usr/share/zoneinfo]
 *
 * Why: Node's ICU data is built without `backzone`, so zones the tz database merged because
 * they agree since 1970 (Europe/Amsterdam into Brussels, Stockholm and Oslo into Berlin, …)
 * have another country's history before 1970, and ICU names no abbreviations, so a legal
 * "mean time" (Paris Mean Time 1891–1911) cannot be told from local mean time. The file keeps,
 * per zone, when local mean time (`LMT`) ended and every offset before 1970.
 *
 * Format: a header line `# tzdata <version>`, then one line per zone:
 *   <zone> <lmtUntil|-> <offset before the first transition> <time>:<offset> …
 * times in seconds since the Unix epoch, offsets in seconds east of Greenwich.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? '/usr/share/zoneinfo';
const output = join(dirname(fileURLToPath(import.meta.url)), '../data/zone-history.txt');
/** Transitions before this are the tz compiler's "big bang" markers, not history. */
const EARLIEST = Date.UTC(1000, 0, 1) / 1000;

interface LocalTimeType {
  offset: number;
  abbreviation: string;
}
interface Zone {
  times: number[];
  types: number[];
  localTimeTypes: LocalTimeType[];
}

/** Reads the version 2+ (64-bit) block of a TZif file (RFC 8536); null for other files. */
function readTzif(bytes: Buffer): Zone | null {
  if (bytes.toString('latin1', 0, 4) !== 'TZif' || bytes[4]! < 0x32) return null;
  const counts = (at: number) => [20, 24, 28, 32, 36, 40].map((k) => bytes.readUInt32BE(at + k));
  const [isUt, isStd, leaps, times, types, chars] = counts(0) as [number, ...number[]];
  let at = 44 + times! * 5 + types! * 6 + chars! + leaps! * 8 + isStd! + isUt;
  const [, , , timeCount, typeCount, charCount] = counts(at) as number[];
  at += 44;
  const zone: Zone = { times: [], types: [], localTimeTypes: [] };
  for (let i = 0; i < timeCount!; i++) zone.times.push(Number(bytes.readBigInt64BE(at + i * 8)));
  at += timeCount! * 8;
  for (let i = 0; i < timeCount!; i++) zone.types.push(bytes[at + i]!);
  at += timeCount!;
  const abbreviations = bytes.toString(
    'latin1',
    at + typeCount! * 6,
    at + typeCount! * 6 + charCount!,
  );
  for (let i = 0; i < typeCount!; i++) {
    const index = bytes[at + i * 6 + 5]!;
    zone.localTimeTypes.push({
      offset: bytes.readInt32BE(at + i * 6),
      abbreviation: abbreviations.slice(index, abbreviations.indexOf('\0', index)),
    });
  }
  return zone;
}

function zoneLine(name: string, zone: Zone): string {
  // Before the first transition the zone is on local time type 0 (RFC 8536 §3.2).
  let current = zone.localTimeTypes[0]!;
  let before = current.offset;
  let lmtUntil: number | null = null;
  const transitions: string[] = [];
  for (let i = 0; i < zone.times.length; i++) {
    const time = zone.times[i]!;
    const next = zone.localTimeTypes[zone.types[i]!]!;
    if (lmtUntil === null && current.abbreviation === 'LMT' && next.abbreviation !== 'LMT') {
      lmtUntil = time;
    }
    if (time < EARLIEST) before = next.offset;
    else if (time < 0 && next.offset !== current.offset) transitions.push(`${time}:${next.offset}`);
    current = next;
  }
  return [name, lmtUntil ?? '-', before, ...transitions].join(' ');
}

const zi = readFileSync(join(root, 'tzdata.zi'), 'utf8');
const version = /^# version (\S+)/m.exec(zi)?.[1] ?? 'unknown';
if (!/^# ddeps .*backzone/m.test(zi)) {
  throw new Error(`${root} was built without backzone: its history before 1970 is incomplete`);
}
const lines: string[] = [];
const walk = (dir: string) => {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (dir === root && ['posix', 'right'].includes(entry)) continue;
    if (statSync(path).isDirectory()) walk(path);
    else {
      const zone = readTzif(readFileSync(path));
      if (zone) lines.push(zoneLine(relative(root, path), zone));
    }
  }
};
walk(root);
writeFileSync(output, `# tzdata ${version} (with backzone), before 1970\n${lines.join('\n')}\n`);
console.log(`${lines.length} zones written to ${output}`);
