import { type RequestHandler, Router } from 'express';
import type { z } from 'zod';

/**
 * A route's descriptor: what it takes and answers, bound to the zod schemas of
 * `@astra/contracts`. Each module declares its routes' descriptors beside their handlers
 * (`describedRouter`); `routeTable.ts` collects them. The OpenAPI document is built from the
 * table (`modules/system/openApiDocument.ts`), and the API tests check every answer against it
 * (its status, its error code, its body's schema).
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `none`; `user` (a session of a user who is not deleted); `unlocked_admin` (an
 * admin whose session was unlocked with the admin password); `stripe_signature` (the webhook).
 */
export type RouteAuth = 'none' | 'user' | 'unlocked_admin' | 'stripe_signature';

export interface RouteError {
  status: number;
  /** The body's `error`. */
  code: string;
  /** When it is answered. */
  when: string;
  /** The body, when it has more than `{error, message, fields?}`. */
  schema?: z.ZodType;
  /**
   * Derived from the route's traits (auth, method, body, rate limit) and answered by shared
   * middleware, not by the route's own code: a test of one route answering it covers them all.
   */
  common?: boolean;
}

export interface RouteResponse {
  description: string;
  /** The JSON body; absent for a redirect or a body that is not JSON. */
  schema?: z.ZodType;
  /** Not JSON: e.g. `text/html`, `image/*`, `text/event-stream`. */
  contentType?: string;
  /** Server-sent events: each event's JSON `data` by its `event` name. */
  events?: Record<string, z.ZodType>;
}

/** A route as its module declares it; its key in the module's descriptors is its `operationId`. */
export interface RouteDescriptor {
  method: HttpMethod;
  /** OpenAPI style: `/api/readings/{id}`. */
  path: string;
  tag: 'System' | 'Sign-in' | 'Account' | 'Readings' | 'Payments' | 'Admin';
  summary: string;
  auth: RouteAuth;
  body?: {
    contentType:
      | 'application/json'
      | 'application/octet-stream'
      | 'application/x-www-form-urlencoded';
    schema?: z.ZodType;
    required: boolean;
  };
  query?: z.ZodObject;
  /** Success answers by status. */
  responses: Record<number, RouteResponse>;
  /** The route's own error answers; `errorsOf` adds the common ones. */
  errors: RouteError[];
  /** It appends events: a stream that keeps changing is `409 conflict`. */
  command?: boolean;
  /** Limited per client IP and minute (`429 rate_limited`). */
  rateLimited?: number;
  /** Mounted only in some configurations (the router may leave it out). */
  onlyWhen?: string;
  /** It reads the event log to its end (`503 log_horizon_stalled` when a transaction holds it). */
  readsLog?: boolean;
}

/** A route of the table: its descriptor and its name. */
export interface ApiRoute extends RouteDescriptor {
  operationId: string;
}

export type RouteDescriptors = Record<string, RouteDescriptor>;

export const json = (schema: z.ZodType, required = true) =>
  ({ contentType: 'application/json', schema, required }) as const;
export const ok = (schema: z.ZodType, description = 'OK') => ({ 200: { description, schema } });
export const redirect = {
  302: { description: 'A redirect (`Location`); failures too are redirects.' },
};
export const notFoundWhen = (when: string): RouteError => ({
  status: 404,
  code: 'not_found',
  when,
});
export const badQuery = (when: string): RouteError => ({
  status: 400,
  code: 'invalid_request',
  when,
});

/** A router built from its routes' descriptors: call it with its dependencies for the Router. */
export interface DescribedRouter<Deps> {
  (deps: Deps): Router;
  /** Its routes, for the route table (no dependencies needed). */
  readonly routes: readonly ApiRoute[];
}

/** Registers the handlers of the route named `operationId` (a key of the descriptors). */
export type RouteRegistrar<Name extends string> = (
  operationId: Name,
  ...handlers: RequestHandler[]
) => void;

/** `/api/readings/{id}` as Express writes it under the API's `/api` mount: `/readings/:id`. */
const expressPath = (path: string) => {
  if (!path.startsWith('/api/')) throw new Error(`A route path must start with /api/: ${path}`);
  return path.slice('/api'.length).replace(/\{(\w+)\}/g, ':$1');
};

/**
 * A router whose every route has a descriptor, and every descriptor a handler: `build`
 * registers each handler by its route's name (`route('submitFeedback', ...handlers)`), and the
 * router refuses to be built with a name it does not describe, a route registered twice, or a
 * described route left without a handler (unless it is `onlyWhen`). Mounted under `/api`.
 */
export function describedRouter<const D extends RouteDescriptors, Deps>(
  descriptors: D,
  build: (deps: Deps, route: RouteRegistrar<keyof D & string>) => void,
): DescribedRouter<Deps> {
  const routes: ApiRoute[] = Object.entries(descriptors).map(([operationId, descriptor]) => ({
    operationId,
    ...descriptor,
  }));
  const byName = new Map(routes.map((route) => [route.operationId, route]));
  const router = (deps: Deps) => {
    const express = Router();
    const handled = new Set<string>();
    build(deps, (operationId, ...handlers) => {
      const route = byName.get(operationId);
      if (!route) throw new Error(`No descriptor for the route ${operationId}`);
      if (handled.has(operationId)) throw new Error(`The route ${operationId} is handled twice`);
      handled.add(operationId);
      express[route.method](expressPath(route.path), ...handlers);
    });
    const unhandled = routes.filter((r) => !handled.has(r.operationId) && !r.onlyWhen);
    if (unhandled.length)
      throw new Error(`Described, with no handler: ${unhandled.map((r) => r.operationId)}`);
    return express;
  };
  return Object.assign(router, { routes });
}

/** Several described routers as one, mounted in the order given. */
export function combinedRouter<Deps>(...routers: DescribedRouter<Deps>[]): DescribedRouter<Deps> {
  const router = (deps: Deps) => {
    const combined = Router();
    for (const each of routers) combined.use(each(deps));
    return combined;
  };
  return Object.assign(router, { routes: routers.flatMap((each) => each.routes) });
}

/** The error answers of a route: its own, and those that its traits bring (`common`). */
export function errorsOf(route: ApiRoute): RouteError[] {
  const common: RouteError[] = [];
  const add = (status: number, code: string, when: string) => {
    if (!route.errors.some((e) => e.status === status && e.code === code))
      common.push({ status, code, when, common: true });
  };
  const viaApiRouter = route.auth !== 'stripe_signature';
  const mutating = route.method !== 'get';
  // The JSON parser runs before every route of the API's router, whatever the method.
  if (route.body?.contentType === 'application/json')
    add(400, 'invalid_request', 'The body is not valid (`fields`), or not JSON');
  if (viaApiRouter) {
    add(400, 'invalid_request', 'A JSON body that does not parse');
    add(413, 'invalid_request', 'A JSON body above 100 kB');
  }
  if (route.auth === 'user' || route.auth === 'unlocked_admin')
    add(401, 'unauthenticated', 'No session, or the user was deleted');
  if (route.auth === 'unlocked_admin') {
    add(403, 'admin_required', 'The user is not an admin');
    add(403, 'admin_locked', 'The session was not unlocked with the admin password (8 hours)');
  }
  if (viaApiRouter && mutating && route.path !== '/api/auth/apple/callback')
    add(403, 'cross_site_request', 'A browser request from another site');
  if (viaApiRouter && mutating && !route.path.startsWith('/api/auth/')) {
    add(400, 'invalid_request', 'A malformed Idempotency-Key');
    add(409, 'request_in_progress', 'The first request with this Idempotency-Key still runs');
    add(422, 'idempotency_key_reused', 'The Idempotency-Key was used for another request');
  }
  // Path ids are checked for their shape before anything reads them.
  if (route.path.includes('{'))
    add(404, 'not_found', 'A path id of the wrong shape, or one that names nothing of yours');
  if (route.command) add(409, 'conflict', 'The stream kept changing through 20 retries');
  if (route.rateLimited) add(429, 'rate_limited', `More than ${route.rateLimited} a minute`);
  if (route.readsLog)
    add(
      503,
      'log_horizon_stalled',
      'A database transaction left open holds the log back (`Retry-After`); see docs/operations.md',
    );
  add(500, 'internal_error', 'Anything unexpected; no details leave the server');
  return [...route.errors, ...common];
}
