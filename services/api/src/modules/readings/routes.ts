import {
  libraryQuerySchema,
  placesQuerySchema,
  type ReadingKind,
  readingKinds,
  uuidIdSchema,
} from '@astra/contracts';
import { type NarrativeWriter, placeView, suggestPlaces } from '@astra/readings';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import { generateReading } from './generation.ts';
import { libraryOf, ownReading, readingViewOf } from './queries.ts';

const readingNotFound = () => notFound('Reading Not Found');
/** Reading ids are UUIDs: any other shape is no reading (404), and never reaches SQL. */
const readingIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'Reading Not Found');

export function readingRoutes(deps: AppDeps & { writer: NarrativeWriter }) {
  const router = Router();
  const { ledger, read, consistency } = deps;

  for (const kind of Object.keys(readingKinds) as ReadingKind[]) {
    router.post(`/readings/${kind}`, requireUser, async (req, res) => {
      res.status(201).json(await generateReading(deps, req, kind, req.body));
    });
  }

  router.get('/readings/:id', requireUser, async (req, res) => {
    const row = await ownReading(read, req.user!.id, readingIdOf(req.params.id));
    if (!row) throw readingNotFound();
    res.json(readingViewOf(row));
  });

  router.delete('/readings/:id', requireUser, async (req, res) => {
    const readingId = readingIdOf(req.params.id);
    if (!(await ownReading(read, req.user!.id, readingId))) throw readingNotFound();
    const deleted = await ledger.reading(
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

  return router;
}
