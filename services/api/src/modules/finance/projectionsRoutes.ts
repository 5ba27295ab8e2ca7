import {
  projectionsOverviewSchema,
  type RebuildStatus,
  reactorMessageSchema,
  rebuildStatusSchema,
  type VerifyResult,
  verifyResultSchema,
} from '@astra/contracts';
import { rebuildReadModels, verifyLedger } from '@astra/projections';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import {
  describedRouter,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { projectorRun } from '../../projections.ts';
import { type OutboxRow, retryNow } from '../../reactors/outbox.ts';
import { reactorMessageOf } from '../../reactors/status.ts';
import { recordAdminActionAfter } from '../admin/adminRecords.ts';
import { projectionsOverview, recordVerifyRun, verifyReportLines } from './projectionsOverview.ts';

const rebuildRunning = () =>
  new HttpError(409, 'rebuild_running', 'A rebuild of the read models is running already');

/** The progress `rebuildReadModels` reports (its type is not exported by the package). */
type RebuildProgress = Parameters<
  NonNullable<NonNullable<Parameters<typeof rebuildReadModels>[2]>['onProgress']>
>[0];

const descriptors = {
  adminProjections: {
    method: 'get',
    path: '/api/admin/projections',
    tag: 'Admin',
    summary:
      'Each projection against the log’s head, the last ledger:verify result and the rebuild’s progress',
    auth: 'unlocked_admin',
    responses: ok(projectionsOverviewSchema),
    errors: [],
  },
  adminRebuildProjections: {
    method: 'post',
    path: '/api/admin/projections/rebuild',
    tag: 'Admin',
    summary:
      'Rebuilds the read models beside the live ones and swaps them in once caught up (progress in GET /api/admin/projections)',
    auth: 'unlocked_admin',
    responses: { 202: { description: 'Started', schema: rebuildStatusSchema } },
    errors: [{ status: 409, code: 'rebuild_running', when: 'A rebuild is running already' }],
  },
  adminVerifyLedger: {
    method: 'post',
    path: '/api/admin/projections/verify',
    tag: 'Admin',
    summary: 'Runs ledger:verify now (the log against the read models) and keeps its result',
    auth: 'unlocked_admin',
    responses: ok(verifyResultSchema),
    readsLog: true,
    errors: [],
  },
  adminRetryReactorMessage: {
    method: 'post',
    path: '/api/admin/reactors/{reactor}/messages/{id}/retry',
    tag: 'Admin',
    summary:
      'Tries a failing or parked message again now (its attempts start over); a sent one is left as it is',
    auth: 'unlocked_admin',
    responses: ok(reactorMessageSchema),
    errors: [notFoundWhen('No such reactor, or no such message of it')],
  },
} satisfies RouteDescriptors;

/**
 * The projections page: `GET /api/admin/projections` (each projection against the log's head,
 * the last verify result, the rebuild's progress), `POST …/verify` (runs `ledger:verify` here and
 * keeps its result) and `POST …/rebuild` (rebuilds the read models in the background of this
 * process: fresh tables filled beside the live ones, which keep serving until the new ones have
 * caught up and are swapped in), and `POST /api/admin/reactors/{reactor}/messages/{id}/retry`
 * (a failing or parked message is tried again now).
 */
export const projectionsRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { db, read, ready, logger } = deps;
  const store = deps.ledger.store;
  const admin = [requireUser, requireUnlockedAdmin];
  const reactors = [deps.mail.reactor];
  /** This process's rebuild while it runs (one at a time; `rebuild_runs` holds the others off). */
  let rebuilding: Promise<void> | undefined;
  /** This process's verification while it runs: a second request waits for the same one. */
  let verifying: Promise<VerifyResult> | undefined;

  route('adminProjections', ...admin, async (_req, res) => {
    res.json(
      await projectionsOverview(
        store,
        db,
        read,
        { ready, run: () => projectorRun(db, deps.config) },
        { appDb: deps.appDb, names: reactors.map((runner) => runner.reactor.name) },
      ),
    );
  });

  route('adminRetryReactorMessage', ...admin, async (req, res) => {
    const runner = reactors.find((r) => r.reactor.name === req.params.reactor);
    const id = String(req.params.id);
    if (!runner) throw new HttpError(404, 'not_found', 'No such reactor');
    const retried = await retryNow(deps.appDb, runner.reactor.name, id);
    const row =
      retried ??
      ((await deps.appDb
        .selectFrom('outbox')
        .selectAll()
        .where('reactor', '=', runner.reactor.name)
        .where('id', '=', id)
        .executeTakeFirst()) as OutboxRow | undefined);
    if (!row) throw new HttpError(404, 'not_found', 'No such message');
    if (retried) {
      runner.wake();
      req.log.info({ reactor: runner.reactor.name, id }, 'An admin retried a message');
    }
    res.json(reactorMessageOf(row));
  });

  route('adminVerifyLedger', ...admin, async (req, res) => {
    verifying ??= (async () => {
      const { ok, lines } = verifyReportLines(await verifyLedger(store, db));
      return recordVerifyRun(db, { ok, lines, source: 'panel' });
    })().finally(() => {
      verifying = undefined;
    });
    const result = await verifying;
    // Each admin who asked is recorded with the run they got (a second request shares the run).
    await recordAdminActionAfter(deps.ledger, req, {
      type: 'AdminVerifyRun',
      data: { ok: result.ok, at: result.at },
    });
    res.json(result);
  });

  route('adminRebuildProjections', ...admin, async (req, res) => {
    if (rebuilding) throw rebuildRunning();
    let claimed: (progress: RebuildProgress) => void = () => {};
    const started = new Promise<RebuildProgress>((resolve) => {
      claimed = resolve;
    });
    const run = rebuildReadModels(store, db, { source: 'panel', onProgress: (p) => claimed(p) });
    rebuilding = run.then(
      (report) =>
        logger.info(
          { events: report.events, position: String(report.position), ms: report.milliseconds },
          'Rebuilt the read models from the panel',
        ),
      (error) => {
        if ((error as { code?: string }).code !== 'rebuild_running')
          logger.error({ err: error }, 'Rebuilding the read models from the panel failed');
      },
    );
    void rebuilding.finally(() => {
      rebuilding = undefined;
    });
    let progress: RebuildProgress;
    try {
      // Answered once the rebuild holds the one running slot (or could not take it).
      progress = await Promise.race([started, run.then(() => started)]);
    } catch (error) {
      if ((error as { code?: string }).code === 'rebuild_running') throw rebuildRunning();
      throw error;
    }
    req.log.info({ rebuild: progress.id }, 'Rebuild of the read models started from the panel');
    await recordAdminActionAfter(deps.ledger, req, {
      type: 'AdminRebuildStarted',
      data: { rebuildId: progress.id, target: progress.target },
    });
    // As it stood when it started (a small log may be rebuilt before this answer leaves).
    res.status(202).json({
      state: 'running',
      startedAt: progress.startedAt.toISOString(),
      finishedAt: null,
      replayed: progress.replayed,
      target: progress.target,
      error: null,
    } satisfies RebuildStatus);
  });
});
