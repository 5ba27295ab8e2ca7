import { describe, expect, it } from 'vitest';
import {
  type ChartData,
  compatibilityFacts,
  compatibilityResult,
  type PointKey,
  relationshipLabel,
  relationshipScore,
  SIGNS,
} from '../src/index.ts';

/** A chart with only the points the score reads, at the given longitudes. */
function chart(points: Partial<Record<PointKey, number>>): ChartData {
  const out: Record<string, unknown> = {};
  for (const [key, abs] of Object.entries(points)) {
    const sign = SIGNS[Math.floor(abs / 30)]!;
    out[key] = {
      name: key,
      abs_pos: abs,
      retrograde: false,
      sign: sign.name,
      quality: sign.quality,
    };
  }
  return out as unknown as ChartData;
}

describe('Labels', () => {
  it.each([
    [0, 'Minimal'],
    [4, 'Minimal'],
    [5, 'Medium'],
    [9, 'Medium'],
    [10, 'Important'],
    [14, 'Important'],
    [15, 'Very Important'],
    [19, 'Very Important'],
    [20, 'Exceptional'],
    [29, 'Exceptional'],
    [30, 'Rare Exceptional'],
    [44, 'Rare Exceptional'],
  ])('%i → %s', (score, label) => {
    expect(relationshipLabel(score)).toBe(label);
  });
});

describe('Discepolo score, worked examples', () => {
  it('same quality + wide Sun–Sun opposition: 5 + 8 = 13, Important', () => {
    // Suns 10° (Aries) and 198° (Libra): both cardinal → +5; separation 172°, an opposition
    // 8° from exact → more than 2° → 8. No other scoring pair is within orb:
    // A.moon 45 – B.sun 198 = 153°, A.sun 10 – B.moon 290 = 80°, A.sun – B.asc 330 = 40°,
    // A.moon – B.asc = 75°, A.asc 150 – B.sun = 48°, A.asc – B.moon = 140°,
    // A.venus 200 – B.mars 250 = 50°, A.mars 300 – B.venus 20 = 80°.
    const a = chart({ sun: 10, moon: 45, venus: 200, mars: 300, ascendant: 150 });
    const b = chart({ sun: 198, moon: 290, venus: 20, mars: 250, ascendant: 330 });
    const s = relationshipScore(a, b);
    expect(s.sameSunQuality).toEqual({ quality: 'Cardinal', points: 5 });
    expect(s.aspects.map((x) => [x.p1, x.p2, x.aspect, x.points])).toEqual([
      ['sun', 'sun', 'opposition', 8],
    ]);
    expect(s.aspects[0]!.orb).toBeCloseTo(8, 9);
    expect(s).toMatchObject({ score: 13, label: 'Important' });
  });

  it('tight Sun–Sun square scores 11 (orb ≤ 2°)', () => {
    // 10° and 101.5°: 91.5° → square, orb 1.5 → 11; both cardinal → +5; total 16.
    // A.moon 180 – B.sun 101.5 = 78.5°, A.moon – B.asc 330 = 150°, A.asc 150 – B.sun = 48.5°:
    // no other scoring contact.
    const a = chart({ sun: 10, moon: 180, venus: 200, mars: 300, ascendant: 150 });
    const b = chart({ sun: 101.5, moon: 290, venus: 20, mars: 250, ascendant: 330 });
    const s = relationshipScore(a, b);
    expect(s.aspects.map((x) => [x.rule, x.points])).toEqual([['sun_sun_hard', 11]]);
    expect(s).toMatchObject({ score: 16, label: 'Very Important' });
  });

  it('Sun–Sun trine, wide Sun–Moon conjunction and Venus–Mars trine: 4 + 8 + 4 = 16', () => {
    // Suns 100° (Cancer, cardinal) and 220° (Scorpio, fixed): different qualities → 0;
    // 120° → trine → 4. A.sun 100 – B.moon 105: conjunction, orb 5 > 2 → 8.
    // A.venus 10 – B.mars 130: 120° → trine → 4. A.mars 60 – B.venus 170: 110° → none.
    // A.moon 300 – B.sun 220: 80° → none; Ascendants 250 and 150 make no aspect with the
    // other's Sun or Moon (30°, 145°, 50°, 150°).
    const a = chart({ sun: 100, moon: 300, venus: 10, mars: 60, ascendant: 250 });
    const b = chart({ sun: 220, moon: 105, venus: 170, mars: 130, ascendant: 150 });
    const s = relationshipScore(a, b);
    expect(s.sameSunQuality).toBeNull();
    expect(s.aspects.map((x) => [x.p1, x.p2, x.aspect, x.rule, x.points])).toEqual([
      ['sun', 'sun', 'trine', 'sun_sun_soft', 4],
      ['venus', 'mars', 'trine', 'venus_mars', 4],
      ['sun', 'moon', 'conjunction', 'sun_moon_conjunction', 8],
    ]);
    expect(s).toMatchObject({ score: 16, label: 'Very Important' });
  });

  it('either way round: person 1’s Moon on person 2’s Sun within 2° scores 11', () => {
    // A: Sun 80 (Gemini, mutable), Moon 200, Asc 290. B: Sun 201 (Libra, cardinal), Moon 20.
    //   A.sun – B.sun   121° trine, orb 1            → Sun–Sun soft       4
    //   A.sun – B.moon   60° sextile, orb 0          → Sun–Moon other     4
    //   A.moon – B.sun    1° conjunction, orb 1 ≤ 2  → Sun–Moon conj     11
    //   A.asc – B.sun    89° square, orb 1           → Sun–Ascendant      4
    //   A.asc – B.moon   90° square, orb 0           → Moon–Ascendant     4
    //   B.asc 0 is 80° from A.sun and 160° from A.moon; Venus–Mars pairs are 140° apart.
    // Total 27 → Exceptional.
    const a = chart({ sun: 80, moon: 200, venus: 0, mars: 0, ascendant: 290 });
    const b = chart({ sun: 201, moon: 20, venus: 140, mars: 140, ascendant: 0 });
    const s = relationshipScore(a, b);
    const scored = s.aspects.map((x) => `${x.p1}-${x.p2} ${x.aspect} ${x.rule} ${x.points}`).sort();
    expect(scored).toEqual([
      'ascendant-moon square moon_ascendant 4',
      'ascendant-sun square sun_ascendant 4',
      'moon-sun conjunction sun_moon_conjunction 11',
      'sun-moon sextile sun_moon_other 4',
      'sun-sun trine sun_sun_soft 4',
    ]);
    expect(s).toMatchObject({ score: 27, label: 'Exceptional', sameSunQuality: null });
  });

  it('no contacts: 0, Minimal', () => {
    const a = chart({ sun: 10, moon: 40, venus: 70, mars: 100, ascendant: 130 });
    const b = chart({ sun: 55, moon: 145, venus: 245, mars: 330, ascendant: 235 });
    // Suns Aries (cardinal) and Taurus (fixed). Scoring pairs: Sun–Sun 45°, A.sun–B.moon 135°,
    // A.moon–B.sun 15°, A.sun–B.asc 135°, A.asc–B.sun 75°, A.moon–B.asc 165°, A.asc–B.moon 15°,
    // A.venus–B.mars 100°, A.mars–B.venus 145°: none is a major aspect within its orb.
    expect(relationshipScore(a, b)).toMatchObject({ score: 0, label: 'Minimal', aspects: [] });
  });
});

describe('Compatibility facts from real charts', () => {
  it('computes both charts, the score and the contract fields', () => {
    const facts = compatibilityFacts(
      {
        firstName: 'John',
        lastName: 'Lennon',
        birthDate: '1940-10-09',
        birthTime: '18:30',
        city: 'Liverpool',
        country: 'GB',
      },
      {
        firstName: 'Yoko',
        lastName: 'Ono',
        birthDate: '1933-02-18',
        birthTime: '20:30',
        city: 'Tokyo',
        country: 'Japan',
      },
    );
    expect(facts.person1.chart.chart.sun.sign).toBe('Libra');
    expect(facts.person2.chart.chart.sun.sign).toBe('Aquarius');
    const result = compatibilityResult(facts, 'report');
    expect(result.compatibility_score).toBe(facts.score.score);
    expect(result.compatibility_score_description).toBe(relationshipLabel(facts.score.score));
    expect(result.full_report).toBe('report');
    const sum =
      (facts.score.sameSunQuality?.points ?? 0) +
      facts.score.aspects.reduce((acc, a) => acc + a.points, 0);
    expect(sum).toBe(facts.score.score);
  });
});
