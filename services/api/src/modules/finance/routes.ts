import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { auditRoutes } from './auditRoutes.ts';
import { exportRoutes } from './exportRoutes.ts';
import { projectionsRoutes } from './projectionsRoutes.ts';

/**
 * Audit and finance for admins with an unlocked session: built by replaying the event log
 * (`@astra/projections`' finance folds), never from the read models.
 */
export function financeRoutes(deps: AppDeps) {
  const router = Router();
  router.use(exportRoutes(deps));
  router.use(auditRoutes(deps));
  router.use(projectionsRoutes(deps));
  return router;
}
