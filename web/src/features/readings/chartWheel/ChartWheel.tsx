import { Box } from '@chakra-ui/react';
import { useMemo } from 'react';
import type { WheelModel } from './chartModel';
import { ASPECT_STYLES, ELEMENT_COLORS, RETROGRADE_MARK, SIGNS } from './chartSymbols';
import { midAngle, polar, sectorPath, spreadAngles, wheelAngle } from './wheelGeometry';

/** The drawing's own coordinates: a 600 × 600 square, scaled to its container. */
const SIZE = 600;
const C = SIZE / 2;
const R = {
  outer: 292,
  signInner: 250,
  tickMajor: 240,
  glyph: 206,
  retrograde: 180,
  leaderEnd: 222,
  houseOuter: 156,
  aspect: 126,
};
/** Closest two glyphs may stand, in degrees of arc at the glyph radius. */
const MIN_GLYPH_GAP = 9;

const GLYPH_FONT =
  "'DejaVu Sans', 'Segoe UI Symbol', 'Noto Sans Symbols', 'Noto Sans Symbols 2', 'Apple Symbols', sans-serif";

const LINE = 'var(--chakra-colors-border-emphasized)';
const FAINT = 'var(--chakra-colors-border)';

interface ChartWheelProps {
  model: WheelModel;
  summary: string;
  /** The point shown highlighted (hovered here or focused in the table). */
  activeKey: string | null;
  onActiveChange: (key: string | null) => void;
}

const TICKS = Array.from({ length: 72 }, (_, i) => i * 5);
const HOUSE_NUMBERS = Array.from({ length: 12 }, (_, i) => i + 1);

const fixed = (n: number) => Math.round(n * 100) / 100;

/**
 * The natal chart wheel: signs on the outer ring, the houses from their cusps (Ascendant on the
 * left, zodiac counter-clockwise), the points at their longitudes with crowded glyphs spread
 * apart on leader lines, ℞ beside retrograde points, and aspect lines in the centre.
 */
export function ChartWheel({ model, summary, activeKey, onActiveChange }: ChartWheelProps) {
  const at = (longitude: number) => wheelAngle(longitude, model.ascendant);

  const placed = useMemo(() => {
    const angles = model.points.map((point) => wheelAngle(point.longitude, model.ascendant));
    const display = spreadAngles(angles, MIN_GLYPH_GAP);
    return model.points.map((point, i) => ({ point, angle: angles[i]!, shown: display[i]! }));
  }, [model]);
  const angleOf = new Map(placed.map((p) => [p.point.key, p.angle]));

  const line = (angle: number, from: number, to: number) => {
    const a = polar(C, from, angle);
    const b = polar(C, to, angle);
    return { x1: fixed(a.x), y1: fixed(a.y), x2: fixed(b.x), y2: fixed(b.y) };
  };
  const textAt = (angle: number, radius: number) => {
    const p = polar(C, radius, angle);
    return { x: fixed(p.x), y: fixed(p.y) };
  };

  return (
    <Box color="fg" w="full" maxW="600px" mx="auto">
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        style={{ width: '100%', height: 'auto', display: 'block', overflow: 'visible' }}
        onMouseLeave={() => onActiveChange(null)}
      >
        <circle cx={C} cy={C} r={R.outer} fill="var(--chakra-colors-bg-panel)" stroke={LINE} />

        {/* Signs: twelve sectors of 30°, tinted by element, with their glyphs. */}
        {SIGNS.map((sign, index) => {
          const start = at(index * 30);
          const end = at(index * 30 + 30);
          return (
            <g key={sign.name}>
              <title>{sign.name}</title>
              <path
                d={sectorPath(C, R.signInner, R.outer, start, end)}
                fill={ELEMENT_COLORS[sign.element]}
                fillOpacity={0.16}
                stroke={LINE}
              />
              <text
                {...textAt(midAngle(start, end), (R.outer + R.signInner) / 2)}
                textAnchor="middle"
                dominantBaseline="central"
                fontSize="27"
                fontFamily={GLYPH_FONT}
                fill="currentColor"
              >
                {sign.glyph}
              </text>
            </g>
          );
        })}

        {/* Degree ticks every 5° on the inside of the sign ring. */}
        {TICKS.map((degree) => (
          <line
            key={`tick-${degree}`}
            {...line(at(degree), R.signInner, degree % 10 === 0 ? R.tickMajor : R.signInner - 5)}
            stroke={LINE}
          />
        ))}

        <circle cx={C} cy={C} r={R.houseOuter} fill="none" stroke={LINE} />
        <circle cx={C} cy={C} r={R.aspect} fill="var(--chakra-colors-bg-subtle)" stroke={LINE} />

        {/* Houses: cusp lines, the four angles heavier, numbers in the inner ring; none when
            the birth time is unknown. */}
        {HOUSE_NUMBERS.map((house) => {
          const cusps = model.cusps;
          if (!cusps) return null;
          const angle = at(cusps[house - 1]!);
          const next = at(cusps[house % 12]!);
          const axis = house % 3 === 1;
          return (
            <g key={`house-${house}`}>
              <title>{`House ${house}`}</title>
              <line
                {...line(angle, R.aspect, axis ? R.outer : R.signInner)}
                stroke={axis ? 'currentColor' : LINE}
                strokeWidth={axis ? 2 : 1}
              />
              <text
                {...textAt(midAngle(angle, next), (R.houseOuter + R.aspect) / 2)}
                textAnchor="middle"
                dominantBaseline="central"
                fontSize="18"
                fill="var(--chakra-colors-fg-muted)"
              >
                {house}
              </text>
            </g>
          );
        })}

        {/* Aspect lines between the points' true positions. */}
        <g>
          {model.aspects.map((aspect) => {
            const from = angleOf.get(aspect.from);
            const to = angleOf.get(aspect.to);
            if (from === undefined || to === undefined) return null;
            const style = ASPECT_STYLES[aspect.type];
            const a = polar(C, R.aspect, from);
            const b = polar(C, R.aspect, to);
            const involved = activeKey === aspect.from || activeKey === aspect.to;
            return (
              <line
                key={`${aspect.from}-${aspect.to}`}
                x1={fixed(a.x)}
                y1={fixed(a.y)}
                x2={fixed(b.x)}
                y2={fixed(b.y)}
                stroke={style.color}
                strokeWidth={involved ? 3 : 1.6}
                strokeDasharray={style.dash}
                strokeOpacity={activeKey && !involved ? 0.2 : 0.9}
              />
            );
          })}
        </g>

        {/* Points: a tick at the true longitude, a leader line and the glyph where it fits. */}
        {placed.map(({ point, angle, shown }) => {
          const active = point.key === activeKey;
          const isAngle = point.glyph.length > 2;
          return (
            // biome-ignore lint/a11y/noStaticElementInteractions: hover only adds emphasis; the table's rows give the same labels to the keyboard
            <g
              key={point.key}
              onMouseEnter={() => onActiveChange(point.key)}
              style={{ cursor: 'default' }}
              opacity={activeKey && !active ? 0.55 : 1}
            >
              <title>{point.label}</title>
              <line
                {...line(angle, R.signInner, R.tickMajor - 4)}
                stroke="currentColor"
                strokeWidth={2}
              />
              <line
                x1={textAt(angle, R.tickMajor - 4).x}
                y1={textAt(angle, R.tickMajor - 4).y}
                x2={textAt(shown, R.leaderEnd).x}
                y2={textAt(shown, R.leaderEnd).y}
                stroke={FAINT}
                strokeWidth={1}
              />
              {active && (
                <circle
                  {...(({ x, y }) => ({ cx: x, cy: y }))(textAt(shown, R.glyph))}
                  r={19}
                  fill="var(--chakra-colors-brand-subtle)"
                  stroke="var(--chakra-colors-brand-border)"
                />
              )}
              <text
                {...textAt(shown, R.glyph)}
                textAnchor="middle"
                dominantBaseline="central"
                fontSize={isAngle ? 17 : 27}
                fontWeight={isAngle ? 700 : 400}
                fontFamily={GLYPH_FONT}
                fill="currentColor"
              >
                {point.glyph}
              </text>
              {point.retrograde && (
                <text
                  {...textAt(shown, R.retrograde)}
                  textAnchor="middle"
                  dominantBaseline="central"
                  fontSize="16"
                  fontFamily={GLYPH_FONT}
                  fill="var(--chakra-colors-fg-error)"
                >
                  {RETROGRADE_MARK}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </Box>
  );
}
