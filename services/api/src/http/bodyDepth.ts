import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

/** Deeper than any request of the API needs (the deepest, compatibility, is 2). */
export const MAX_BODY_DEPTH = 64;

/**
 * How deep a parsed JSON value nests, counted without recursion (a body 50,000 levels deep must
 * not overflow the stack here), stopping as soon as it passes `limit`.
 */
export function depthExceeds(value: unknown, limit = MAX_BODY_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Refuses a JSON body nested deeper than `MAX_BODY_DEPTH` with `400 invalid_request`, right after
 * the body parser and before anything recurses over it (the `Idempotency-Key` hash stringifies the
 * body; schemas and loggers walk it).
 */
export const refuseDeepBodies: RequestHandler = (req, _res, next) => {
  if (req.body !== null && typeof req.body === 'object' && depthExceeds(req.body)) {
    return next(
      new HttpError(400, 'invalid_request', 'The request is not valid', {
        fields: [
          { field: '(body)', message: `must not be nested deeper than ${MAX_BODY_DEPTH} levels` },
        ],
      }),
    );
  }
  next();
};
