import { healthSchema, healthStartingSchema, siteInfoSchema } from '@astra/contracts';
import { siteInfoOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';
import { projectorRun } from '../../projections.ts';

const descriptors = {
  health: {
    method: 'get',
    path: '/api/health',
    tag: 'System',
    summary: 'Health: ok, degraded (a projection is stuck) or starting',
    auth: 'none',
    responses: {
      200: {
        description: '`ok`, or `degraded` naming the failed projections',
        schema: healthSchema,
      },
      503: {
        description: '`starting`: the read models do not answer yet',
        schema: healthStartingSchema,
      },
    },
    errors: [],
  },
  siteInfo: {
    method: 'get',
    path: '/api/site',
    tag: 'System',
    summary: 'The operator’s details, the support address and the social links (configuration)',
    auth: 'none',
    responses: ok(siteInfoSchema),
    errors: [],
  },
} satisfies RouteDescriptors;

/**
 * `GET /api/site`: the operator's details, support address and social links (configuration).
 * `GET /api/health`: `ok`; `degraded` while a projection cannot apply an event (the others go
 * on; it names each, its position and error, from `projection_failures`, which any projector
 * process writes) or while a transaction has held the event log's horizon for
 * `HORIZON_STALL_SECONDS` (no reader of the log sees past it; it names the backend);
 * `starting` until the read models answer. With `PROJECTOR=external` it names the projector
 * processes that lead (`projector`).
 */
export const systemRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ready, read } = deps;
  const site = siteInfoOf(deps.config);
  const stallMs = deps.config.HORIZON_STALL_SECONDS * 1000;
  const external = deps.config.PROJECTOR === 'external';
  route('siteInfo', (_req, res) => {
    res.json(site);
  });
  route('health', async (_req, res) => {
    if (!(await ready())) {
      res.status(503).json({ status: 'starting' });
      return;
    }
    const [failed, hold, projector] = await Promise.all([
      read.selectFrom('projection_failures').selectAll().orderBy('name').execute(),
      deps.horizonHold(),
      external ? projectorRun(deps.db, deps.config) : undefined,
    ]);
    const stalled = hold && hold.heldForMs >= stallMs ? hold : null;
    if (failed.length === 0 && !stalled) {
      res.json({ status: 'ok', ...(projector && { projector }) });
      return;
    }
    // Still 200: the API serves; only the named read models (or every one) are stale.
    res.json({
      status: 'degraded',
      ...(projector && { projector }),
      projections: failed.map((f) => ({
        name: f.name,
        state: 'failed',
        position: String(f.position),
        error: f.error,
        since: new Date(f.failed_at).toISOString(),
      })),
      ...(stalled && {
        horizon: {
          heldForSeconds: Math.floor(stalled.heldForMs / 1000),
          pid: stalled.holder.pid,
          state: stalled.holder.state,
          database: stalled.holder.database,
          application: stalled.holder.application,
          transactionStart: stalled.holder.transactionStart,
          query: stalled.holder.query,
        },
      }),
    });
  });
});
