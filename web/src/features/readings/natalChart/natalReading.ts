import type { ReadingView } from '@astra/contracts';
import { formatLongDate, formatZodiacal } from '@astra/contracts';
import { fields, text } from '../result/resultFields';

/** Spec §3: the report's placeholder, which is not shown. */
const NO_REPORT = 'No report available';

export interface NatalView {
  chart: unknown;
  aspects: unknown;
  /** The full report, or null when empty or the placeholder. */
  report: string | null;
  name: string;
  birth: { date: string; time: string; city: string; country: string };
  /** Set when the chart had to use another house system (polar latitudes). */
  houseSystemNote?: string;
  /** Set when the birth time was unknown: what the chart leaves out, and the Moon's range. */
  unknownTimeNote?: string;
}

/** What a chart of an unknown birth time leaves out, and how far the Moon went that day. */
export function unknownTimeNote(result: Record<string, unknown>): string | undefined {
  const info = fields(result.birthInfo);
  if (info.timeUnknown !== true) return undefined;
  const range = fields(result.moonRange);
  const signs = Array.isArray(range.signs) ? range.signs.filter((s) => typeof s === 'string') : [];
  const start = typeof range.start === 'number' ? formatZodiacal(range.start) : null;
  const end = typeof range.end === 'number' ? formatZodiacal(range.end) : null;
  const moon =
    start && end
      ? signs.length > 1
        ? ` The Moon moves 12–15° a day: on that day it went from ${start} to ${end}, so its sign may be ${signs.join(' or ')}.`
        : ` The Moon moves 12–15° a day: on that day it went from ${start} to ${end}, all in ${signs[0] ?? 'one sign'}.`
      : ' The Moon moves 12–15° a day, so its sign may differ.';
  return `Birth time unknown: the planets are drawn for 12:00 noon local time. There are no houses, Ascendant or Midheaven, which need the exact time.${moon}`;
}

const orUnknown = (value: string | undefined) => (value?.trim() ? value.trim() : 'Unknown');

export function natalFromReading(reading: ReadingView): NatalView | null {
  const { result, input } = reading;
  if (!result.chart) return null;
  const info = { ...fields(input), ...fields(result.birthInfo) };
  const report = text(result.fullReport) ?? text(result.full_report) ?? '';
  const date = text(info.birthDate);
  const houseSystem = fields(result.houseSystem);
  return {
    chart: result.chart,
    aspects: result.aspects,
    report: report.trim() && report.trim() !== NO_REPORT ? report : null,
    name: [text(info.firstName), text(info.lastName)].filter(Boolean).join(' '),
    birth: {
      date: date ? formatLongDate(date) : 'Unknown',
      time:
        info.timeUnknown === true
          ? 'Unknown (chart for 12:00 noon)'
          : orUnknown(text(info.birthTime)?.slice(0, 5)),
      city: orUnknown(text(info.city)),
      country: orUnknown(text(info.country)),
    },
    houseSystemNote:
      houseSystem.fallback === true
        ? `Houses: ${text(houseSystem.name) ?? 'Porphyry'}, as Placidus houses are undefined at this latitude.`
        : undefined,
    unknownTimeNote: unknownTimeNote(result),
  };
}
