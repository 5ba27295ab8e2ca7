import { describe, expect, it } from 'vitest';
import {
  findPlace,
  fold,
  natalChartFacts,
  ReadingInputError,
  resolveBirthPlace,
  resolveCountry,
  suggestPlaces,
} from '../src/index.ts';

describe('Countries', () => {
  it.each([
    ['FR', 'FR'],
    ['fr', 'FR'],
    ['France', 'FR'],
    ['FRA', 'FR'],
    ['USA', 'US'],
    ['U.S.', 'US'],
    ['United States', 'US'],
    ['United States of America', 'US'],
    ['GBR', 'GB'],
    ['UK', 'GB'],
    ['United Kingdom', 'GB'],
    ['England', 'GB'],
    ['Deutschland', 'DE'],
    ['The Netherlands', 'NL'],
    ["Côte d'Ivoire", 'CI'],
    ['Ivory Coast', 'CI'],
    ['Czech Republic', 'CZ'],
    ['South Korea', 'KR'],
    ['Myanmar', 'MM'],
    ['Burma', 'MM'],
    ['Hong Kong', 'HK'],
    ['Turkey', 'TR'],
    ['Türkiye', 'TR'],
  ])('%s → %s', (input, code) => {
    expect(resolveCountry(input)).toBe(code);
  });

  it('unknown countries are null', () => {
    expect(resolveCountry('Atlantis')).toBeNull();
    expect(resolveCountry('')).toBeNull();
  });
});

describe('findPlace', () => {
  it('Paris, FR and Paris, US are different places', () => {
    const fr = findPlace('Paris', 'FR')!;
    expect(fr).toMatchObject({ name: 'Paris', country: 'FR', countryName: 'France' });
    expect(fr.latitude).toBeCloseTo(48.853, 2);
    expect(fr.longitude).toBeCloseTo(2.349, 2);
    expect(fr.timezone).toBe('Europe/Paris');
    const us = findPlace('Paris', 'US')!;
    expect(us).toMatchObject({ name: 'Paris', country: 'US', admin: 'TX' }); // most populous
    expect(us.timezone).toBe('America/Chicago');
    expect(findPlace('Paris', 'US-TN')).toMatchObject({ admin: 'TN' });
    expect(findPlace('Paris, KY', 'United States')).toMatchObject({ admin: 'KY' });
  });

  it('ISO code and English name both work', () => {
    expect(findPlace('Paris', 'France')).toEqual(findPlace('Paris', 'FR'));
    expect(findPlace('Paris', 'FRA')).toEqual(findPlace('Paris', 'FR'));
    expect(findPlace('London', 'United Kingdom')).toEqual(findPlace('London', 'GB'));
  });

  it("'New York' resolves to New York City", () => {
    const ny = findPlace('New York', 'US')!;
    expect(ny.name).toBe('New York City');
    expect(ny.timezone).toBe('America/New_York');
    expect(findPlace('new york city', 'USA')).toEqual(ny);
  });

  it('folds accents and case', () => {
    const zurich = findPlace('Zürich', 'Switzerland')!;
    expect(zurich.name).toBe('Zürich');
    expect(findPlace('Zurich', 'CH')).toEqual(zurich);
    expect(findPlace('ZURICH', 'ch')).toEqual(zurich);
    const saoPaulo = findPlace('São Paulo', 'Brazil')!;
    expect(saoPaulo).toMatchObject({
      name: 'São Paulo',
      country: 'BR',
      timezone: 'America/Sao_Paulo',
    });
    expect(findPlace('Sao Paulo', 'BR')).toEqual(saoPaulo);
    expect(fold('São Paulo')).toBe('sao paulo');
  });

  it('knows common other spellings (Cologne/Köln, München/Munich)', () => {
    expect(findPlace('Cologne', 'Germany')!.name).toBe('Köln');
    expect(findPlace('München', 'DE')!.name).toBe('Munich');
    expect(findPlace('St. Petersburg', 'Russia')!.name).toBe('Saint Petersburg');
  });

  it('unknown places are null, never a guess', () => {
    expect(findPlace('Atlantis', 'Greece')).toBeNull();
    expect(findPlace('Pari', 'France')).toBeNull(); // no partial matches
    expect(findPlace('Paris', 'Atlantis')).toBeNull();
    expect(findPlace('Paris', 'DE')).toBeNull();
    expect(findPlace('', 'FR')).toBeNull();
  });

  it('the natal facts turn an unknown place into an input error', () => {
    const details = {
      firstName: 'A',
      lastName: 'B',
      birthDate: '1990-01-01',
      birthTime: '12:00',
      city: 'Atlantis',
      country: 'Greece',
    };
    expect(resolveBirthPlace(details)).toBeNull();
    expect(() => natalChartFacts(details)).toThrow(ReadingInputError);
    // Given coordinates override the lookup.
    const given = resolveBirthPlace({ ...details, latitude: 37.9, longitude: 23.7 })!;
    expect(given).toMatchObject({ source: 'given', timezone: 'Europe/Athens', country: 'GR' });
  });
});

describe('suggestPlaces', () => {
  it('prefix matches, most populous first', () => {
    const s = suggestPlaces('par');
    expect(s).toHaveLength(10);
    expect(s[0]!.name).toBe('Paris');
    for (let i = 1; i < s.length; i++)
      expect(s[i - 1]!.population).toBeGreaterThanOrEqual(s[i]!.population);
    for (const p of s) expect(fold(p.name).startsWith('par')).toBe(true);
  });

  it('accepts a country after a comma', () => {
    const s = suggestPlaces('paris, us', 5);
    expect(s.length).toBeGreaterThan(3);
    for (const p of s) expect(p.country).toBe('US');
    expect(suggestPlaces('lon, canada', 3)[0]!.name).toBe('London');
    expect(suggestPlaces('paris, tx')).toHaveLength(1);
    // Two letters are also tried as a US state: TN is Tunisia and Tennessee.
    expect(suggestPlaces('paris, tn').map((p) => `${p.name} ${p.country}-${p.admin}`)).toContain(
      'Paris US-TN',
    );
  });

  it('folds the query and answers the fields the contract names', () => {
    const [first] = suggestPlaces('ZÜR', 3);
    expect(first).toMatchObject({ name: 'Zürich', country: 'CH', timezone: 'Europe/Zurich' });
    expect(typeof first!.latitude).toBe('number');
    expect(typeof first!.longitude).toBe('number');
    expect(suggestPlaces('sao p', 1)[0]!.name).toBe('São Paulo');
    expect(suggestPlaces('new y', 1)[0]!.name).toBe('New York City');
  });

  it('empty or unknown queries give nothing', () => {
    expect(suggestPlaces('')).toEqual([]);
    expect(suggestPlaces('xqzzv')).toEqual([]);
    expect(suggestPlaces('paris, atlantis')).toEqual([]);
  });

  it('answers fast once loaded (p95 well under 5 ms of CPU time)', () => {
    // CPU time rather than wall time: test files run in parallel and share the cores.
    suggestPlaces('warm-up');
    const times: number[] = [];
    for (const q of ['a', 's', 'sa', 'san', 'lon', 'new', 'm', 'ber', 'paris, us', 'k', 'ch']) {
      for (let i = 0; i < 20; i++) {
        const start = process.cpuUsage();
        suggestPlaces(q);
        const used = process.cpuUsage(start);
        times.push((used.user + used.system) / 1000);
      }
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.95)]!).toBeLessThan(5);
  });
});
