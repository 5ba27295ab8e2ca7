import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  combinedRouter,
  describedRouter,
  ok,
  type RouteDescriptor,
  type RouteDescriptors,
} from '../src/http/routeDescriptors.ts';

const answer = z.object({ ok: z.boolean() });
const descriptor = (
  method: RouteDescriptor['method'],
  path: string,
  extra: Partial<RouteDescriptor> = {},
): RouteDescriptor => ({
  method,
  path,
  tag: 'System',
  summary: 'A test route',
  auth: 'none',
  responses: ok(answer),
  errors: [],
  ...extra,
});

const descriptors = {
  listThings: descriptor('get', '/api/things'),
  removeThing: descriptor('delete', '/api/things/{id}/parts/{partId}'),
  debugThings: descriptor('get', '/api/things/debug', { onlyWhen: 'in development' }),
} satisfies RouteDescriptors;

const handler = () => {};
/** `METHOD path` of each route of an Express router. */
const mounted = (router: { stack: { route?: { path: string; methods: object } }[] }) =>
  router.stack.flatMap((layer) =>
    layer.route ? Object.keys(layer.route.methods).map((m) => `${m} ${layer.route!.path}`) : [],
  );

describe('a described router', () => {
  it('lists its routes by name, in order, and mounts each at its path under /api', () => {
    const things = describedRouter(descriptors, (_deps: null, route) => {
      route('listThings', handler);
      route('removeThing', handler);
      route('debugThings', handler);
    });
    expect(things.routes.map((r) => `${r.operationId} ${r.method} ${r.path}`)).toEqual([
      'listThings get /api/things',
      'removeThing delete /api/things/{id}/parts/{partId}',
      'debugThings get /api/things/debug',
    ]);
    expect(mounted(things(null) as never)).toEqual([
      'get /things',
      'delete /things/:id/parts/:partId',
      'get /things/debug',
    ]);
  });

  it('refuses a handler with no descriptor, a route handled twice, and a route with no handler', () => {
    const build = (register: (route: (name: string, ...h: (() => void)[]) => void) => void) =>
      describedRouter(descriptors as RouteDescriptors, (_deps: null, route) => register(route))(
        null,
      );
    expect(() =>
      build((route) => {
        route('listThings', handler);
        route('removeThing', handler);
        route('renameThing', handler);
      }),
    ).toThrow('No descriptor for the route renameThing');
    expect(() =>
      build((route) => {
        route('listThings', handler);
        route('listThings', handler);
      }),
    ).toThrow('The route listThings is handled twice');
    expect(() => build((route) => route('listThings', handler))).toThrow(
      'Described, with no handler: removeThing',
    );
    // A route mounted only in some configurations may be left out.
    expect(() =>
      build((route) => {
        route('listThings', handler);
        route('removeThing', handler);
      }),
    ).not.toThrow();
  });

  it('combined with others, lists their routes in the order given', () => {
    const first = describedRouter({ a: descriptor('get', '/api/a') }, (_deps: null, route) =>
      route('a', handler),
    );
    const second = describedRouter({ b: descriptor('get', '/api/b') }, (_deps: null, route) =>
      route('b', handler),
    );
    const both = combinedRouter(second, first);
    expect(both.routes.map((r) => r.operationId)).toEqual(['b', 'a']);
    const layers = (both(null) as unknown as { stack: { handle: never }[] }).stack;
    expect(layers.flatMap((layer) => mounted(layer.handle))).toEqual(['get /b', 'get /a']);
  });
});
