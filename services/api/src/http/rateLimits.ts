import { rateLimit } from 'express-rate-limit';

const limited = {
  error: 'rate_limited',
  message: 'Too many attempts. Please wait a moment and try again.',
};

/** Sign-in and password routes: enough for people, too few for guessing. */
export const signInLimit = (limit: number) =>
  rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: limited,
  });
