import { z } from 'zod';

/** The JSON of every error answer. */
export const errorBodySchema = z
  .object({
    error: z.string(),
    message: z.string(),
    fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .loose();
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/**
 * `GET /api/me/ledger`: a page, and `changesOnly=true` for the consumer's history, which leaves
 * out entries that moved no credit (an account opened, a checkout opened); the admin audit keeps them.
 */
export const myLedgerQuerySchema = pageQuerySchema.extend({
  changesOnly: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
});

/** Global positions are 64-bit: they travel as decimal strings. */
export const positionSchema = z.string().regex(/^\d+$/);

/** A C0 or C1 control character or DEL; multi-line text keeps tab, line feed and carriage return. */
const isControl = (code: number, multiline: boolean) =>
  (code < 0x20 && !(multiline && (code === 0x09 || code === 0x0a || code === 0x0d))) ||
  (code >= 0x7f && code <= 0x9f);
export const hasControlCharacters = (value: string, multiline = false) => {
  for (let i = 0; i < value.length; i++) if (isControl(value.charCodeAt(i), multiline)) return true;
  return false;
};
/**
 * Half of a surrogate pair without its other half (the pattern
 * `/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/`): no valid
 * UTF-8, and PostgreSQL refuses it.
 */
export const hasLoneSurrogate = (value: string) => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (code >= 0xdc00 && code <= 0xdfff) return true;
  }
  return false;
};
/**
 * What shows nothing: format characters (zero-width space and joiners, BOM, soft hyphen,
 * direction marks), separators and white space, controls, the combining grapheme joiner, and the
 * fillers that render blank (Hangul fillers, the blank Braille pattern).
 */
const INVISIBLE = /[\p{Cf}\p{Z}\p{Cc}\s\u115F\u1160\u3164\uFFA0\u2800]|\u034F/gu;

/** A text has something to read once its invisible characters are gone. */
export const isReadable = (value: string) => value.replace(INVISIBLE, '') !== '';

export const textMessages = {
  control: 'must not contain control characters',
  surrogate: 'must be valid Unicode text (it has half of a surrogate pair)',
  unreadable: 'must be text someone can read',
} as const;

/**
 * The one rule of free text in a request (names, questions, reasons, messages, places, searches):
 * trimmed; no NUL or other control characters (tab and line breaks only where `multiline`); no
 * lone surrogate; and, unless empty, something visible (a text of only zero-width characters is
 * not a name). Length limits and "is required" are the caller's: `text().min(1, …).max(…)`.
 * Each failing check is the only message (`abort`), so a NUL is not also "too long".
 */
export const text = (options: { multiline?: boolean; base?: z.ZodString } = {}) =>
  (
    options.base ??
    z.string({
      error: (issue) =>
        issue.code !== 'invalid_type'
          ? undefined
          : issue.input === undefined
            ? 'is required'
            : 'must be text',
    })
  )
    .refine((value) => !hasLoneSurrogate(value), {
      message: textMessages.surrogate,
      abort: true,
    })
    .trim()
    .refine((value) => !hasControlCharacters(value, options.multiline), {
      message: textMessages.control,
      abort: true,
    })
    .refine((value) => value === '' || isReadable(value), {
      message: textMessages.unreadable,
      abort: true,
    });

/** The largest value of PostgreSQL's `integer`: ids kept in such columns never go past it. */
export const MAX_INT4 = 2_147_483_647;

/** A positive whole number that fits the read models' `integer` id columns (tier ids). */
export const intId = (what: string) =>
  z
    .number({
      error: (issue) => (issue.code === 'invalid_type' ? 'must be a number' : undefined),
    })
    // The range first, and alone: 2^53 is out of range before it is an unsafe integer.
    .min(1, { message: `must be a ${what} (1 to ${MAX_INT4})`, abort: true })
    .max(MAX_INT4, { message: `must be a ${what} (1 to ${MAX_INT4})`, abort: true })
    .int('must be a whole number');

/** Ids the API makes itself (users, readings) are UUIDs: anything else names nothing (404). */
export const uuidIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/);
/** A checkout session id: Stripe's `cs_…`, or the local checkout's `cs_local_…`. */
export const checkoutSessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/);

/** Whether the runtime knows a time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
