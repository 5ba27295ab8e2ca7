/** Readers for the loosely typed `result` and `input` objects of a ReadingView. */
export type Fields = Record<string, unknown>;

export const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const count = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

export const fields = (value: unknown): Fields => (isFields(value) ? value : {});

/** JSON from a URL parameter (the spec's older `data=` links); null when it does not parse. */
export function parseJsonParam(raw: string | null): Fields | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isFields(parsed) ? parsed : null;
  } catch (error) {
    console.error('Unparseable reading data in the address', error);
    return null;
  }
}

/** "March 14, 2026" for a timestamp, or undefined when it is not a date. */
export function formatLongDate(iso: string | undefined, timeZone?: string): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone,
  });
}
