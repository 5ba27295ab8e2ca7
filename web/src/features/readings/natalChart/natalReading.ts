import type { ReadingView } from '@astra/contracts';
import { formatLongDate } from '@astra/contracts';
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
      time: orUnknown(text(info.birthTime)?.slice(0, 5)),
      city: orUnknown(text(info.city)),
      country: orUnknown(text(info.country)),
    },
    houseSystemNote:
      houseSystem.fallback === true
        ? `Houses: ${text(houseSystem.name) ?? 'Porphyry'}, as Placidus houses are undefined at this latitude.`
        : undefined,
  };
}
