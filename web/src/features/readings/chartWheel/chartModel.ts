import { formatZodiacal } from '@astra/contracts';
import { count, fields, text } from '../result/resultFields';
import { type AspectType, HOUSE_ORDINALS, isAspectType, WHEEL_POINTS } from './chartSymbols';

export interface WheelPoint {
  key: string;
  name: string;
  glyph: string;
  longitude: number;
  retrograde: boolean;
  house?: number;
  /** "Mars 14°22′ Leo, house 5, retrograde" */
  label: string;
}

export interface WheelAspect {
  from: string;
  to: string;
  type: AspectType;
  orb?: number;
}

export interface WheelModel {
  /** The longitude on the left (9 o'clock): the Ascendant, or 0° Aries without houses. */
  ascendant: number;
  /** The twelve house cusps' longitudes, first house first; null when the birth time is unknown. */
  cusps: number[] | null;
  points: WheelPoint[];
  aspects: WheelAspect[];
}

export function pointLabel(point: Omit<WheelPoint, 'label'>): string {
  return [
    `${point.name} ${formatZodiacal(point.longitude)}`,
    point.house ? `house ${point.house}` : null,
    point.retrograde ? 'retrograde' : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The natal result's `chart` and `aspects` as what the wheel draws; null without a chart. */
export function wheelModel(chartValue: unknown, aspectsValue: unknown): WheelModel | null {
  const chart = fields(chartValue);
  if (!chart.sun) return null;
  const found = HOUSE_ORDINALS.map((ordinal) => count(fields(chart[`${ordinal}_house`]).abs_pos));
  // A chart of an unknown birth time has no houses (and no Ascendant): drawn without them.
  const cusps = found.every((cusp) => cusp !== undefined) ? (found as number[]) : null;

  const points = WHEEL_POINTS.flatMap(({ key, name, glyph }) => {
    const source = fields(chart[key]);
    const longitude = count(source.abs_pos);
    if (longitude === undefined) return [];
    const point = {
      key,
      name,
      glyph,
      longitude,
      retrograde: source.retrograde === true,
      house: count(source.house),
    };
    return [{ ...point, label: pointLabel(point) }];
  });
  const ascendant = points.find((point) => point.key === 'ascendant')?.longitude ?? cusps?.[0] ?? 0;

  const shown = new Set(points.map((point) => point.key));
  const aspects = (Array.isArray(aspectsValue) ? aspectsValue : []).flatMap((value) => {
    const aspect = fields(value);
    const from = text(aspect.p1);
    const to = text(aspect.p2);
    if (!from || !to || !shown.has(from) || !shown.has(to) || !isAspectType(aspect.aspect))
      return [];
    return [{ from, to, type: aspect.aspect, orb: count(aspect.orb) }];
  });

  return { ascendant, cusps, points, aspects };
}

/** The wheel's text alternative: the big three, then what the table below holds. */
export function wheelSummary(model: WheelModel): string {
  const named = ['sun', 'moon', 'ascendant']
    .map((key) => model.points.find((point) => point.key === key))
    .filter((point): point is WheelPoint => Boolean(point))
    .map((point) => `${point.name} ${formatZodiacal(point.longitude)}`);
  return (
    `Natal chart wheel: ${named.join(', ')}. Twelve signs, ${model.cusps ? 'twelve houses' : 'no houses (birth time unknown)'}, ` +
    `${model.points.length} points and ${model.aspects.length} aspect lines. ` +
    'Every position is listed in the table below the wheel.'
  );
}
