import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findPlace, placeAt, suggestPlaces, timeZoneAt } from '../src/index.ts';
import { cities500SupplementText, readCities, supplementPath } from '../src/places/citiesData.ts';
import { fold } from '../src/places/fold.ts';

describe('the merged place lists (cities1000 + cities500)', () => {
  it('finds by name a village only cities500 lists, after the larger places', () => {
    const cities1000 = readCities();
    expect(cities1000.name.includes('Dättwil')).toBe(false);
    const dattwil = findPlace('Dättwil', 'CH')!;
    expect(dattwil).toMatchObject({ name: 'Dättwil', country: 'CH', admin: 'AG' });
    expect(dattwil.latitude).toBeCloseTo(47.455, 2);
    expect(dattwil.timezone).toBe('Europe/Zurich');
    expect(suggestPlaces('dattwil').map((p) => p.label)).toContain('Dättwil, Switzerland');
  });

  it('ranks the cities1000 places by population, the added ones after them', () => {
    const names = suggestPlaces('Geneva, US', 10);
    const populations = names.map((p) => p.population);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
    // The same GeoNames place under its new name is not added twice.
    const geneva = suggestPlaces('genev', 10).filter((p) => p.country === 'CH');
    expect(geneva.map((p) => p.name)).toEqual(['Genève']);
  });

  it('tells apart two places of the same label (Lisbon, OH) by their county', () => {
    const labels = suggestPlaces('Lisbon, OH').map((p) => p.label);
    expect(labels).toEqual([
      expect.stringMatching(/^Lisbon, (Clark|Columbiana) County, OH, United States$/),
      expect.stringMatching(/^Lisbon, (Clark|Columbiana) County, OH, United States$/),
    ]);
    expect(new Set(labels).size).toBe(2);
    // Outside the US, by region.
    const neustadt = suggestPlaces('Neustadt', 10).map((p) => p.label);
    expect(new Set(neustadt).size).toBe(neustadt.length);
    // A place alone under its label keeps the short one.
    expect(suggestPlaces('Paris', 1)[0]!.label).toBe('Paris, France');
  });

  it('gives a place neither list has by its coordinates: Kesswil, the zone from geo-tz', () => {
    expect(findPlace('Kesswil', 'CH')).toBeNull();
    expect(suggestPlaces('Kesswil')).toEqual([]);
    const kesswil = placeAt(47.5957, 9.3257, 'Kesswil');
    expect(kesswil).toMatchObject({
      name: 'Kesswil',
      country: 'CH',
      countryName: 'Switzerland',
      latitude: 47.5957,
      longitude: 9.3257,
      timezone: 'Europe/Zurich',
      label: 'Kesswil, Switzerland',
    });
    expect(placeAt(47.5957, 9.3257).name).toBe('47.5957° N, 9.3257° E');
  });

  it('data/cities500.tsv is what the installed packages give (scripts/cities500.ts)', () => {
    const current = readFileSync(supplementPath(), 'utf8') === cities500SupplementText(fold);
    expect(current, 'run: npx tsx packages/readings/scripts/cities500.ts').toBe(true);
  });

  it('geo-tz finds the zone of coordinates, also across a border and at sea', () => {
    expect(timeZoneAt(47.5957, 9.3257)).toBe('Europe/Zurich');
    expect(timeZoneAt(47.66, 9.18)).toBe('Europe/Berlin'); // Konstanz, across the lake's border
    expect(timeZoneAt(40.7128, -74.006)).toBe('America/New_York');
    expect(timeZoneAt(-33.8688, 151.2093)).toBe('Australia/Sydney');
    expect(timeZoneAt(0, -30)).toBe('Etc/GMT+2'); // mid-Atlantic: the nautical zone
  });
});
