import { adminActivityQuerySchema, ledgerExplorerQuerySchema } from '@astra/contracts';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { activityPage } from './adminActivity.ts';
import { explorePage } from './ledgerExplorer.ts';

/**
 * The audit views over the event log (never the read models): the global ledger explorer
 * (`GET /api/admin/ledger`) and what admins did (`GET /api/admin/activity`).
 */
export function auditRoutes(deps: AppDeps) {
  const store = deps.ledger.store;
  const router = Router();
  const admin = [requireUser, requireUnlockedAdmin];

  router.get('/admin/ledger', ...admin, async (req, res) => {
    res.json(await explorePage(store, ledgerExplorerQuerySchema.parse(req.query)));
  });

  router.get('/admin/activity', ...admin, async (req, res) => {
    res.json(await activityPage(store, adminActivityQuerySchema.parse(req.query)));
  });
  return router;
}
