/** Formatting for the admin panel: money from minor units, counts, dates and times. */

const currencyFormat = (currency: string, compact = false) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...(compact ? { notation: 'compact', maximumFractionDigits: 1 } : {}),
  });

/** Minor units (cents) as money in the currency: 123456 'usd' → '$1,234.56'; JPY has no cents. */
export function formatMinor(minor: number, currency: string, compact = false): string {
  try {
    const digits = currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
    return currencyFormat(currency, compact).format(minor / 10 ** digits);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

export const formatCount = (value: number) => value.toLocaleString('en-US');

/** A lag in seconds: tenths below 10 s, whole seconds above. */
export const formatSeconds = (seconds: number) =>
  seconds < 10 ? `${seconds.toFixed(1)} s` : `${formatCount(Math.round(seconds))} s`;

export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** An instant with its time zone, in the browser's zone: 'Nov 28, 2026, 02:31 GMT+1'. */
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });

/** The browser's time zone as the panel names it: 'Europe/Berlin (GMT+1)', or 'UTC'. */
export function localZoneLabel(at: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const short =
    new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? '';
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return 'UTC';
  return short && short !== zone ? `${zone} (${short})` : zone;
}

export const formatTime = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });

/** A series day ('2025-03-07', UTC) as 'Mar 7'. */
export const formatDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** The amount field: a whole number with an optional sign ('+25', '-10'), else null. */
export function parseWholeNumber(raw: string): number | null {
  const text = raw.trim().replace(/^\u2212/, '-');
  if (!/^[+-]?\d{1,9}$/.test(text)) return null;
  return Number(text);
}

/** A fresh Idempotency-Key. */
export const newIdempotencyKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
