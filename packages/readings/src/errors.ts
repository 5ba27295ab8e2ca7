/**
 * A reading cannot be computed from the input (malformed date, unknown time zone, a date outside
 * the bundled ephemeris, a name without letters...). The API turns it into a 400 before any credit
 * is spent; `code` is machine readable and `field` names the offending input.
 */
export class ReadingInputError extends Error {
  override readonly name = 'ReadingInputError';
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
