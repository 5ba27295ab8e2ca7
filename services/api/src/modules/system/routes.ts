import { Router } from 'express';
import { siteInfoOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { openApiRoutes } from './openapi.ts';

/**
 * `GET /api/site`: the operator's details, support address and social links (configuration).
 * `GET /api/health`: `ok`; `degraded` while a projection cannot apply an event (the others go
 * on; it names each, its position and error, from `projection_failures`, which any projector
 * process writes); `starting` until the read models answer.
 */
export function systemRoutes(deps: AppDeps) {
  const { ready, read } = deps;
  const router = Router();
  router.use(openApiRoutes(deps));
  const site = siteInfoOf(deps.config);
  router.get('/site', (_req, res) => {
    res.json(site);
  });
  router.get('/health', async (_req, res) => {
    if (!(await ready())) {
      res.status(503).json({ status: 'starting' });
      return;
    }
    const failed = await read
      .selectFrom('projection_failures')
      .selectAll()
      .orderBy('name')
      .execute();
    if (failed.length === 0) {
      res.json({ status: 'ok' });
      return;
    }
    // Still 200: the API serves; only the named read models are stale.
    res.json({
      status: 'degraded',
      projections: failed.map((f) => ({
        name: f.name,
        state: 'failed',
        position: String(f.position),
        error: f.error,
        since: new Date(f.failed_at).toISOString(),
      })),
    });
  });
  return router;
}
