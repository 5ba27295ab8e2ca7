import {
  insufficientCreditsErrorSchema,
  libraryPageSchema,
  libraryQuerySchema,
  okMessageSchema,
  placeAtQuerySchema,
  placeAtResponseSchema,
  placesQuerySchema,
  placesResponseSchema,
  type ReadingKindRecord,
  readingCreatedSchema,
  readingRouteNames,
  readingStartedSchema,
  readingStreamEvents,
  readingStreamQuerySchema,
  readingViewSchema,
  uuidIdSchema,
} from '@astra/contracts';
import { placeAt, placeView, suggestPlaces } from '@astra/readings';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import {
  combinedRouter,
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptor,
  type RouteDescriptors,
  type RouteError,
} from '../../http/routeDescriptors.ts';
import { settleQuietly, startReading } from './generation.ts';
import { libraryOf, ownReading, readingViewOf } from './queries.ts';
import { readingEvents, type StreamEvent, streamableReading } from './readingStream.ts';

const readingNotFound = () => notFound('Reading Not Found');
/** Reading ids are UUIDs: any other shape is no reading (404), and never reaches SQL. */
const readingIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'Reading Not Found');

/** How often an idle event stream sends a comment, so that proxies keep it open. */
const HEARTBEAT_MS = 15_000;

const sse = (e: StreamEvent) =>
  `event: ${e.event}\n${'id' in e ? `id: ${e.id}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`;

/** Where the reader is in the text: an EventSource's `Last-Event-ID` (on reconnecting), else `from`. */
function fromOf(req: Request) {
  const { from } = readingStreamQuerySchema.parse(req.query);
  const lastEventId = req.get('last-event-id');
  return lastEventId && /^\d{1,8}$/.test(lastEventId) ? Number(lastEventId) : (from ?? 0);
}

const readingErrors: RouteError[] = [
  {
    status: 400,
    code: 'invalid_request',
    when: 'A bad body, or input the engines refuse (an unknown place)',
  },
  {
    status: 402,
    code: 'insufficient_credits',
    when: 'The balance does not cover the cost; nothing is spent',
    schema: insufficientCreditsErrorSchema,
  },
  { status: 403, code: 'account_blocked', when: 'The account is blocked; nothing is written' },
];

/** A reading of each kind: answered once it is written, or at once with its facts (`/start`). */
const requestDescriptors = (kinds: readonly ReadingKindRecord[]): RouteDescriptors =>
  Object.fromEntries(
    kinds.flatMap(({ slug, title, schema }): [string, RouteDescriptor][] => [
      [
        readingRouteNames(slug).create,
        {
          method: 'post',
          path: `/api/readings/${slug}`,
          tag: 'Readings',
          summary: `${title}: spends the app's credit cost`,
          auth: 'user',
          body: json(schema),
          responses: {
            201: { description: 'The reading, delivered', schema: readingCreatedSchema },
          },
          errors: [
            ...readingErrors,
            {
              status: 502,
              code: 'generation_failed',
              when: 'The writer failed; the credits were given back',
            },
          ],
          command: true,
        },
      ],
      [
        readingRouteNames(slug).start,
        {
          method: 'post',
          path: `/api/readings/${slug}/start`,
          tag: 'Readings',
          summary: `${title}, its text streamed: spends the app's credit cost and answers at once with the facts; the text follows on \`GET /api/readings/{id}/stream\``,
          auth: 'user',
          body: json(schema),
          responses: {
            202: {
              description: 'The reading with its facts; its text is being written',
              schema: readingStartedSchema,
            },
          },
          // A writer's failure comes later, as the stream's `failed` event (refunded as the 502 is).
          errors: readingErrors,
          command: true,
        },
      ],
    ]),
  );

/** The two routes of each kind the catalogue sells. */
const readingRequests = (kinds: readonly ReadingKindRecord[]) =>
  describedRouter(requestDescriptors(kinds), (deps: AppDeps, route) => {
    const { consistency, catalog } = deps;
    for (const kind of catalog.kinds) {
      const names = readingRouteNames(kind.record.slug);
      // For API clients: the whole reading once it is written.
      route(names.create, requireUser, async (req, res) => {
        const reading = await startReading(deps, req, kind, req.body);
        res.status(201).json(await reading.finished);
      });
      // For the web app: the facts at once; the text follows on the reading's event stream. The
      // answer does not wait for the read models: the session's next reads (its balance) do.
      route(names.start, requireUser, async (req, res) => {
        const reading = await startReading(deps, req, kind, req.body);
        await consistency.remember(req, reading.position);
        res.status(202).json(reading.started);
      });
    }
  });

const descriptors = {
  readingStream: {
    method: 'get',
    path: '/api/readings/{id}/stream',
    tag: 'Readings',
    summary:
      "A reading's text as server-sent events while it is written: the reading with its facts, the text so far, then each new piece, and its end (done or failed); resumable from `from` / `Last-Event-ID`",
    auth: 'user',
    query: readingStreamQuerySchema,
    responses: {
      200: {
        description:
          'An event stream: `reading`, then `text` pieces (`id`: the characters so far), then `done` or `failed`',
        contentType: 'text/event-stream',
        events: readingStreamEvents,
      },
    },
    errors: [
      { status: 400, code: 'invalid_request', when: 'A `from` that is not a whole number' },
      notFoundWhen("Unknown, someone else's, or deleted"),
    ],
  },
  reading: {
    method: 'get',
    path: '/api/readings/{id}',
    tag: 'Readings',
    summary: "One of the user's own completed readings",
    auth: 'user',
    responses: ok(readingViewSchema),
    errors: [notFoundWhen("Unknown, someone else's, not completed, or deleted")],
  },
  deleteReading: {
    method: 'delete',
    path: '/api/readings/{id}',
    tag: 'Readings',
    summary: 'Removes a completed reading from the library (no refund)',
    auth: 'user',
    responses: ok(okMessageSchema),
    errors: [notFoundWhen("Unknown, someone else's, not completed, or already deleted")],
    command: true,
  },
  library: {
    method: 'get',
    path: '/api/library',
    tag: 'Readings',
    summary: "The user's completed readings, newest first, 25 a page",
    auth: 'user',
    query: libraryQuerySchema,
    responses: ok(libraryPageSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'A bad `search`, `appId` or `page`' }],
  },
  places: {
    method: 'get',
    path: '/api/places',
    tag: 'Readings',
    summary: 'Place suggestions for the birthplace fields',
    auth: 'none',
    query: placesQuerySchema,
    responses: ok(placesResponseSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'No `q`, or one above 120 characters' }],
  },
  placeAt: {
    method: 'get',
    path: '/api/places/at',
    tag: 'Readings',
    summary:
      'A birthplace the suggestions lack, by its coordinates: its time zone (found there by the server) and country',
    auth: 'none',
    query: placeAtQuerySchema,
    responses: ok(placeAtResponseSchema),
    errors: [
      {
        status: 400,
        code: 'invalid_request',
        when: 'A `latitude` or `longitude` missing, not a decimal number or out of range; a `label` above 120 characters',
      },
    ],
  },
} satisfies RouteDescriptors;

const readingViews = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ledger, read, consistency, drafts } = deps;

  route('readingStream', requireUser, async (req: Request, res: Response) => {
    const readingId = readingIdOf(req.params.id);
    const from = fromOf(req);
    const recorded = await streamableReading(ledger, readingId, req.user!.id);
    if (!recorded) throw readingNotFound();

    // The reader leaving, or the server stopping (the client reconnects, maybe elsewhere).
    const stop = new AbortController();
    const end = () => stop.abort();
    res.on('close', end);
    drafts.stopping.addEventListener('abort', end, { once: true });
    req.socket.setNoDelay(true);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    // An EventSource waits this long before it reconnects.
    res.write('retry: 2000\n\n');
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    try {
      const events = readingEvents(deps, recorded, from, stop.signal, (position) =>
        settleQuietly(consistency, req, position),
      );
      for await (const event of events) res.write(sse(event));
    } catch (error) {
      req.log.error({ err: error, readingId }, 'A reading stream failed');
    } finally {
      clearInterval(heartbeat);
      drafts.stopping.removeEventListener('abort', end);
      res.end();
    }
  });

  route('reading', requireUser, async (req, res) => {
    const row = await ownReading(read, req.user!.id, readingIdOf(req.params.id));
    if (!row) throw readingNotFound();
    res.json(readingViewOf(row));
  });

  route('deleteReading', requireUser, async (req, res) => {
    const readingId = readingIdOf(req.params.id);
    if (!(await ownReading(read, req.user!.id, readingId))) throw readingNotFound();
    const deleted = await ledger.handle(
      'reading',
      readingId,
      { type: 'DeleteReading', userId: req.user!.id },
      req.context,
    );
    await consistency.settle(req, deleted.position);
    res.json({ ok: true, message: 'Reading deleted successfully' });
  });

  route('library', requireUser, async (req, res) => {
    res.json(await libraryOf(read, req.user!.id, libraryQuerySchema.parse(req.query)));
  });

  route('places', async (req, res) => {
    const { q } = placesQuerySchema.parse(req.query);
    res.json({ items: suggestPlaces(q, 10).map(placeView) });
  });

  // A place the suggestions lack, by its coordinates: the zone is the server's, never the client's.
  route('placeAt', async (req, res) => {
    const { latitude, longitude, label } = placeAtQuerySchema.parse(req.query);
    res.json({ place: placeView(placeAt(latitude, longitude, label)) });
  });
});

/**
 * Readings: asking for one of these kinds (the catalogue's: `deps.catalog.records`), its text as
 * it is written, the library, and the birthplace search.
 */
export const readingRoutes = (kinds: readonly ReadingKindRecord[]) =>
  combinedRouter(readingRequests(kinds), readingViews);
