import type { Request } from 'express';

/** The route whose body is a picture's raw bytes: its type is judged by the bytes alone. */
export const AVATAR_ROUTE = '/me/avatar';

/**
 * A request whose body is raw bytes whatever its `Content-Type` says: never parsed as JSON (a
 * picture sent as `application/json` reaches its route) and never keyed by its JSON body.
 */
export const takesRawBody = (req: Request) =>
  req.method === 'PUT' && routeOf(req.path) === AVATAR_ROUTE;

/** A path as Express routes it: letters in any case, one trailing slash or none. */
const routeOf = (path: string) => path.toLowerCase().replace(/\/$/, '');

/** The JSON body parser's test: JSON by its type, on a route that takes JSON. */
export const parsesAsJson = (req: Request) =>
  !takesRawBody(req) && Boolean(req.is('application/json'));
