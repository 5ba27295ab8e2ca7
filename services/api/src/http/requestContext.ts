import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/**
 * Every request gets a correlation id (the caller's `X-Request-Id` when sane) for its events,
 * answered in `X-Request-Id` and written on its log lines. It runs first, before any body parser,
 * so that every answer carries it; running it again (a router of its own) keeps the id.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  if (req.context) return next();
  const given = req.get('x-request-id');
  const correlationId = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.set('X-Request-Id', correlationId);
  req.context = { actor: { kind: 'system' }, correlationId };
  next();
};
