import { combinedRouter } from '../../http/routeDescriptors.ts';
import { auditRoutes } from './auditRoutes.ts';
import { balanceRoutes } from './balanceRoutes.ts';
import { closingRoutes } from './closingRoutes.ts';
import { exportRoutes } from './exportRoutes.ts';
import { projectionsRoutes } from './projectionsRoutes.ts';
import { reportRoutes } from './reportRoutes.ts';

/**
 * Audit and finance for admins with an unlocked session: built by replaying the event log
 * (`@astra/projections`' finance folds), never from the read models.
 */
export const financeRoutes = combinedRouter(
  auditRoutes,
  balanceRoutes,
  exportRoutes,
  reportRoutes,
  closingRoutes,
  projectionsRoutes,
);
