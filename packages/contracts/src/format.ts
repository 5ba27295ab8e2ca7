/**
 * The words and numbers a person reads, formatted one way wherever they appear: the offline
 * writer's reports, the prompts and the web app's tables and cards.
 */

const SIGN_NAMES = [
  'Aries',
  'Taurus',
  'Gemini',
  'Cancer',
  'Leo',
  'Virgo',
  'Libra',
  'Scorpio',
  'Sagittarius',
  'Capricorn',
  'Aquarius',
  'Pisces',
] as const;

/** The months in English, January first. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * A zodiac position, "23°30′ Pisces": degrees and minutes within the sign, cut, never rounded (as
 * astrologers and ephemerides write them: 29°59.7′ is still 29°59′ of its sign, not the next).
 */
export function formatZodiacal(longitude: number): string {
  const lon = ((longitude % 360) + 360) % 360;
  const sign = Math.floor(lon / 30);
  const within = lon - sign * 30;
  const degrees = Math.floor(within);
  // The epsilon keeps 6°35′ from reading 6°34′ when the double is 6.58333…2.
  const minutes = Math.min(59, Math.floor((within - degrees) * 60 + 1e-9));
  return `${degrees}°${String(minutes).padStart(2, '0')}′ ${SIGN_NAMES[sign % 12]}`;
}

/** A calendar day, "March 14, 1879", from YYYY-MM-DD (any year, no time zone involved). */
export function formatLongDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  const month = MONTH_NAMES[Number(match?.[2]) - 1];
  if (!match || !month) return isoDate;
  return `${month} ${Number(match[3])}, ${Number(match[1])}`;
}

/**
 * An amount in minor units as people write it (`$5.39`, `¥500`: the currency's own decimals);
 * the bare figure for an unknown code.
 */
export function formatMoney(minor: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
    });
    return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${minor} ${currency} (minor units)`;
  }
}

/** "1 conjunction", "3 conjunctions", "0 squares"; `many` for irregular plurals. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
