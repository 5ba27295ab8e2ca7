import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';

/** The body of a `429 rate_limited` answer. */
export const limited = {
  error: 'rate_limited',
  message: 'Too many attempts. Please wait a moment and try again.',
};

/**
 * Sign-in and password routes: enough for people, too few for guessing. Over the limit the
 * answer is `429 rate_limited`, or `onLimited` (pages a browser navigates to answer with a page).
 */
export const signInLimit = (limit: number, onLimited?: RequestHandler) =>
  rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: limited,
    ...(onLimited ? { handler: (req, res, next) => onLimited(req, res, next) } : {}),
  });
