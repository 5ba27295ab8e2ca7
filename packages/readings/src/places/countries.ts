/**
 * Countries by ISO 3166-1 alpha-2 code, alpha-3 code, English name (CLDR names through
 * Intl.DisplayNames, long and short forms) or a common alternative name; input folded.
 */
import { fold, variants } from './fold.ts';

/** ISO 3166-1 alpha-2 → alpha-3 (plus XK/XKX for Kosovo, as GeoNames uses). */
// biome-ignore format: a code table reads best as a table
export const ALPHA3: Readonly<Record<string, string>> = {
  AD: 'AND', AE: 'ARE', AF: 'AFG', AG: 'ATG', AI: 'AIA', AL: 'ALB', AM: 'ARM', AO: 'AGO',
  AQ: 'ATA', AR: 'ARG', AS: 'ASM', AT: 'AUT', AU: 'AUS', AW: 'ABW', AX: 'ALA', AZ: 'AZE',
  BA: 'BIH', BB: 'BRB', BD: 'BGD', BE: 'BEL', BF: 'BFA', BG: 'BGR', BH: 'BHR', BI: 'BDI',
  BJ: 'BEN', BL: 'BLM', BM: 'BMU', BN: 'BRN', BO: 'BOL', BQ: 'BES', BR: 'BRA', BS: 'BHS',
  BT: 'BTN', BV: 'BVT', BW: 'BWA', BY: 'BLR', BZ: 'BLZ', CA: 'CAN', CC: 'CCK', CD: 'COD',
  CF: 'CAF', CG: 'COG', CH: 'CHE', CI: 'CIV', CK: 'COK', CL: 'CHL', CM: 'CMR', CN: 'CHN',
  CO: 'COL', CR: 'CRI', CU: 'CUB', CV: 'CPV', CW: 'CUW', CX: 'CXR', CY: 'CYP', CZ: 'CZE',
  DE: 'DEU', DJ: 'DJI', DK: 'DNK', DM: 'DMA', DO: 'DOM', DZ: 'DZA', EC: 'ECU', EE: 'EST',
  EG: 'EGY', EH: 'ESH', ER: 'ERI', ES: 'ESP', ET: 'ETH', FI: 'FIN', FJ: 'FJI', FK: 'FLK',
  FM: 'FSM', FO: 'FRO', FR: 'FRA', GA: 'GAB', GB: 'GBR', GD: 'GRD', GE: 'GEO', GF: 'GUF',
  GG: 'GGY', GH: 'GHA', GI: 'GIB', GL: 'GRL', GM: 'GMB', GN: 'GIN', GP: 'GLP', GQ: 'GNQ',
  GR: 'GRC', GS: 'SGS', GT: 'GTM', GU: 'GUM', GW: 'GNB', GY: 'GUY', HK: 'HKG', HM: 'HMD',
  HN: 'HND', HR: 'HRV', HT: 'HTI', HU: 'HUN', ID: 'IDN', IE: 'IRL', IL: 'ISR', IM: 'IMN',
  IN: 'IND', IO: 'IOT', IQ: 'IRQ', IR: 'IRN', IS: 'ISL', IT: 'ITA', JE: 'JEY', JM: 'JAM',
  JO: 'JOR', JP: 'JPN', KE: 'KEN', KG: 'KGZ', KH: 'KHM', KI: 'KIR', KM: 'COM', KN: 'KNA',
  KP: 'PRK', KR: 'KOR', KW: 'KWT', KY: 'CYM', KZ: 'KAZ', LA: 'LAO', LB: 'LBN', LC: 'LCA',
  LI: 'LIE', LK: 'LKA', LR: 'LBR', LS: 'LSO', LT: 'LTU', LU: 'LUX', LV: 'LVA', LY: 'LBY',
  MA: 'MAR', MC: 'MCO', MD: 'MDA', ME: 'MNE', MF: 'MAF', MG: 'MDG', MH: 'MHL', MK: 'MKD',
  ML: 'MLI', MM: 'MMR', MN: 'MNG', MO: 'MAC', MP: 'MNP', MQ: 'MTQ', MR: 'MRT', MS: 'MSR',
  MT: 'MLT', MU: 'MUS', MV: 'MDV', MW: 'MWI', MX: 'MEX', MY: 'MYS', MZ: 'MOZ', NA: 'NAM',
  NC: 'NCL', NE: 'NER', NF: 'NFK', NG: 'NGA', NI: 'NIC', NL: 'NLD', NO: 'NOR', NP: 'NPL',
  NR: 'NRU', NU: 'NIU', NZ: 'NZL', OM: 'OMN', PA: 'PAN', PE: 'PER', PF: 'PYF', PG: 'PNG',
  PH: 'PHL', PK: 'PAK', PL: 'POL', PM: 'SPM', PN: 'PCN', PR: 'PRI', PS: 'PSE', PT: 'PRT',
  PW: 'PLW', PY: 'PRY', QA: 'QAT', RE: 'REU', RO: 'ROU', RS: 'SRB', RU: 'RUS', RW: 'RWA',
  SA: 'SAU', SB: 'SLB', SC: 'SYC', SD: 'SDN', SE: 'SWE', SG: 'SGP', SH: 'SHN', SI: 'SVN',
  SJ: 'SJM', SK: 'SVK', SL: 'SLE', SM: 'SMR', SN: 'SEN', SO: 'SOM', SR: 'SUR', SS: 'SSD',
  ST: 'STP', SV: 'SLV', SX: 'SXM', SY: 'SYR', SZ: 'SWZ', TC: 'TCA', TD: 'TCD', TF: 'ATF',
  TG: 'TGO', TH: 'THA', TJ: 'TJK', TK: 'TKL', TL: 'TLS', TM: 'TKM', TN: 'TUN', TO: 'TON',
  TR: 'TUR', TT: 'TTO', TV: 'TUV', TW: 'TWN', TZ: 'TZA', UA: 'UKR', UG: 'UGA', UM: 'UMI',
  US: 'USA', UY: 'URY', UZ: 'UZB', VA: 'VAT', VC: 'VCT', VE: 'VEN', VG: 'VGB', VI: 'VIR',
  VN: 'VNM', VU: 'VUT', WF: 'WLF', WS: 'WSM', XK: 'XKX', YE: 'YEM', YT: 'MYT', ZA: 'ZAF',
  ZM: 'ZMB', ZW: 'ZWE',
};

/** Common names CLDR does not give (folded form → alpha-2), English and a few endonyms. */
const ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  'united kingdom of great britain and northern ireland': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  nederland: 'NL',
  'russian federation': 'RU',
  'czech republic': 'CZ',
  'south korea': 'KR',
  'republic of korea': 'KR',
  'korea republic of': 'KR',
  korea: 'KR',
  'north korea': 'KP',
  'ivory coast': 'CI',
  burma: 'MM',
  turkey: 'TR',
  macedonia: 'MK',
  swaziland: 'SZ',
  vatican: 'VA',
  'vatican city': 'VA',
  'holy see': 'VA',
  uae: 'AE',
  'east timor': 'TL',
  drc: 'CD',
  'dr congo': 'CD',
  'democratic republic of the congo': 'CD',
  'congo kinshasa': 'CD',
  'republic of the congo': 'CG',
  congo: 'CG',
  palestine: 'PS',
  'state of palestine': 'PS',
  macao: 'MO',
  macau: 'MO',
  'hong kong': 'HK',
  'cabo verde': 'CV',
  'cape verde': 'CV',
  eswatini: 'SZ',
  czechia: 'CZ',
  bosnia: 'BA',
  trinidad: 'TT',
  deutschland: 'DE',
  espana: 'ES',
  brasil: 'BR',
  italia: 'IT',
  schweiz: 'CH',
  suisse: 'CH',
  svizzera: 'CH',
  osterreich: 'AT',
  polska: 'PL',
  sverige: 'SE',
  norge: 'NO',
  danmark: 'DK',
  suomi: 'FI',
  eire: 'IE',
  nippon: 'JP',
  mexique: 'MX',
  belgique: 'BE',
  belgie: 'BE',
};

export interface Country {
  code: string;
  alpha3: string;
  name: string;
}

let displayNames: Intl.DisplayNames | undefined;
let shortNames: Intl.DisplayNames | undefined;
let byKey: Map<string, string> | undefined;

/** English name of an alpha-2 code from CLDR ('FR' → 'France'); the code if unknown. */
export function countryName(code: string): string {
  displayNames ??= new Intl.DisplayNames('en', { type: 'region', fallback: 'code' });
  try {
    return displayNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

function addName(map: Map<string, string>, name: string, code: string): void {
  const folded = fold(name);
  if (!folded) return;
  const forms = [folded, ...variants(folded)];
  if (folded.startsWith('the ')) forms.push(folded.slice(4));
  for (const form of forms) if (!map.has(form)) map.set(form, code);
}

function index(): Map<string, string> {
  if (byKey) return byKey;
  const map = new Map<string, string>();
  shortNames ??= new Intl.DisplayNames('en', { type: 'region', style: 'short', fallback: 'none' });
  for (const [code, alpha3] of Object.entries(ALPHA3)) {
    map.set(code.toLowerCase(), code);
    map.set(alpha3.toLowerCase(), code);
  }
  for (const code of Object.keys(ALPHA3)) {
    for (const name of [countryName(code), shortNames.of(code)]) {
      if (!name || name === code) continue;
      addName(map, name, code);
      // 'Myanmar (Burma)' → also 'Myanmar' and 'Burma'; 'Congo - Kinshasa' → also 'Congo Kinshasa'.
      const paren = /^(.*?)\s*\((.*)\)$/.exec(name);
      if (paren) {
        addName(map, paren[1]!, code);
        addName(map, paren[2]!, code);
      }
      // 'Hong Kong SAR China' → 'Hong Kong'
      const sar = /^(.*) SAR China$/.exec(name);
      if (sar) addName(map, sar[1]!, code);
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) if (!map.has(alias)) map.set(alias, code);
  byKey = map;
  return map;
}

/**
 * Alpha-2 code for a country given by code (FR, FRA, 'U.S.') or English name ('France',
 * 'United States', 'The Netherlands', 'Côte d’Ivoire'), or null if unknown.
 */
export function resolveCountry(input: string): string | null {
  const folded = fold(input);
  if (!folded) return null;
  const map = index();
  const direct =
    map.get(folded) ?? (folded.startsWith('the ') ? map.get(folded.slice(4)) : undefined);
  if (direct) return direct;
  const compact = folded.replace(/ /g, '');
  if (compact.length <= 3) return map.get(compact) ?? null;
  return null;
}

/**
 * Alpha-2 codes of countries whose name or code starts with the folded input (for type-ahead:
 * 'fra' → FR, 'united' → AE, GB, US ...). Exact matches only for inputs of up to two letters.
 */
export function countriesMatchingPrefix(input: string): Set<string> {
  const folded = fold(input);
  const out = new Set<string>();
  if (!folded) return out;
  const exact = resolveCountry(input);
  if (exact) out.add(exact);
  if (folded.length <= 2) return out;
  for (const [key, code] of index()) if (key.startsWith(folded)) out.add(code);
  return out;
}

export function countryInfo(code: string): Country | null {
  const upper = code.toUpperCase();
  const alpha3 = ALPHA3[upper];
  return alpha3 ? { code: upper, alpha3, name: countryName(upper) } : null;
}
