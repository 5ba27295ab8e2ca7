import { ConcurrencyError, LogHorizonStalledError } from '@astra/event-store';
import { type DomainErrorCode, isDomainError } from '@astra/ledger';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';

/** An error that is the answer: its status and the contract's `{error, message, ...}` body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * `402 insufficient_credits` of a spend, in the route's words (`message`); a refusal of the
 * ledger's that counts credits on hold (a disputed payment's pack, `held`) keeps its own words,
 * which say so, and the figure.
 */
export const insufficientCredits = (
  message: string,
  required: number,
  balance: number,
  refusal?: { message: string; details: Record<string, unknown> },
) => {
  const held = refusal?.details.held;
  return typeof held === 'number'
    ? new HttpError(402, 'insufficient_credits', refusal!.message, { required, balance, held })
    : new HttpError(402, 'insufficient_credits', message, { required, balance });
};

export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
export const unauthorized = (message = 'Please sign in') =>
  new HttpError(401, 'unauthenticated', message);

/** HTTP status of each refusal the deciders can give (the compiler asks for a new code's). */
const statusOfDomainError: Record<DomainErrorCode, number> = {
  user_not_found: 404,
  insufficient_credits: 402,
  invalid_amount: 400,
  reason_required: 400,
  account_closed: 409,
  account_deleted: 409,
  email_taken: 409,
  no_active_subscription: 409,
  subscription_missing_tier: 409,
  invalid_tier: 422,
  refresh_not_due: 409,
  spend_not_refundable: 409,
  balance_limit: 409,
  subscription_active: 409,
  checkout_in_progress: 409,
  same_plan: 409,
  reading_not_found: 404,
  reading_failed: 409,
  account_blocked: 403,
  admin_required: 403,
  self_action: 409,
  last_admin: 409,
  month_closed: 409,
  month_not_ended: 409,
  month_not_next: 409,
  // State conflicts that routes usually answer themselves, with more to say.
  balance_changed: 409,
  reading_completed: 409,
  unknown_payment: 409,
  voice_session_active: 409,
  voice_session_failed: 409,
  voice_session_not_found: 409,
  voice_session_started: 409,
};

/** The request field a refusal is about, for the contract's `fields` list. */
const fieldOfDomainError: Partial<Record<DomainErrorCode, string>> = {
  invalid_amount: 'amount',
  reason_required: 'reason',
};

const fieldName = (path: readonly PropertyKey[]) => path.map(String).join('.') || '(body)';

/** The failing fields of a request; an unknown field is named itself. */
export const fieldsOf = (error: ZodError) =>
  error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          field: fieldName([...issue.path, key]),
          message: 'is not a known field',
        }))
      : [{ field: fieldName(issue.path), message: issue.message }],
  );

/** Every failure becomes the contract's JSON; nothing internal (stack, SQL) leaves the server. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) return;
  if (error instanceof HttpError) {
    res.status(error.status).json({ error: error.code, message: error.message, ...error.extra });
    return;
  }
  if (error instanceof ZodError) {
    res.status(400).json({
      error: 'invalid_request',
      message: 'The request is not valid',
      fields: fieldsOf(error),
    });
    return;
  }
  if (isDomainError(error)) {
    const status = statusOfDomainError[error.code];
    if (status === 400) {
      const field = fieldOfDomainError[error.code] ?? '(body)';
      res.status(400).json({
        error: 'invalid_request',
        message: error.message,
        fields: [{ field, message: error.message }],
      });
      return;
    }
    res.status(status).json({ error: error.code, message: error.message, ...error.details });
    return;
  }
  if (error instanceof ConcurrencyError) {
    res
      .status(409)
      .json({ error: 'conflict', message: 'Too many changes at once. Please try again.' });
    return;
  }
  if (error instanceof LogHorizonStalledError) {
    // An operator's matter (a transaction left open on the database), not the request's.
    req.log?.error({ err: error, holder: error.holder }, error.message);
    res.status(503).set('Retry-After', '30').json({
      error: 'log_horizon_stalled',
      message:
        'The event log cannot be read to its end right now: a database transaction has been left open. Please try again later.',
    });
    return;
  }
  // body-parser's errors: malformed JSON, too large, wrong charset.
  const status = (error as { status?: number; type?: string }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const type = (error as { type?: string }).type;
    res.status(status).json({
      error: 'invalid_request',
      message:
        type === 'entity.parse.failed' ? 'The body is not valid JSON' : (error as Error).message,
    });
    return;
  }
  // The request's logger (pino-http): the line carries its request and correlation ids.
  req.log?.error({ err: error }, 'Unexpected error; answered 500 internal_error');
  res.status(500).json({
    error: 'internal_error',
    message: 'Something went wrong on our side. Please try again.',
  });
};

export const apiNotFound: RequestHandler = (req, _res, next) =>
  next(notFound(`No route ${req.method} ${req.originalUrl.split('?')[0]}`));
