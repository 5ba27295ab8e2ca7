import {
  libraryQuerySchema,
  placeAtQuerySchema,
  placesQuerySchema,
  type ReadingKind,
  readingKinds,
  readingStreamQuerySchema,
  uuidIdSchema,
} from '@astra/contracts';
import { placeAt, placeView, suggestPlaces } from '@astra/readings';
import { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
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

export function readingRoutes(deps: AppDeps) {
  const router = Router();
  const { ledger, read, consistency, drafts } = deps;

  for (const kind of Object.keys(readingKinds) as ReadingKind[]) {
    // For API clients: the whole reading once it is written.
    router.post(`/readings/${kind}`, requireUser, async (req, res) => {
      const reading = await startReading(deps, req, kind, req.body);
      res.status(201).json(await reading.finished);
    });
    // For the web app: the facts at once; the text follows on the reading's event stream. The
    // answer does not wait for the read models: the session's next reads (its balance) do.
    router.post(`/readings/${kind}/start`, requireUser, async (req, res) => {
      const reading = await startReading(deps, req, kind, req.body);
      await consistency.remember(req, reading.position);
      res.status(202).json(reading.started);
    });
  }

  router.get('/readings/:id/stream', requireUser, async (req: Request, res: Response) => {
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

  router.get('/readings/:id', requireUser, async (req, res) => {
    const row = await ownReading(read, req.user!.id, readingIdOf(req.params.id));
    if (!row) throw readingNotFound();
    res.json(readingViewOf(row));
  });

  router.delete('/readings/:id', requireUser, async (req, res) => {
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

  router.get('/library', requireUser, async (req, res) => {
    res.json(await libraryOf(read, req.user!.id, libraryQuerySchema.parse(req.query)));
  });

  router.get('/places', async (req, res) => {
    const { q } = placesQuerySchema.parse(req.query);
    res.json({ items: suggestPlaces(q, 10).map(placeView) });
  });

  // A place the suggestions lack, by its coordinates: the zone is the server's, never the client's.
  router.get('/places/at', async (req, res) => {
    const { latitude, longitude, label } = placeAtQuerySchema.parse(req.query);
    res.json({ place: placeView(placeAt(latitude, longitude, label)) });
  });

  return router;
}
