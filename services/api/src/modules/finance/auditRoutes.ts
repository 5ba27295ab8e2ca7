import {
  adminActivityPageSchema,
  adminActivityQuerySchema,
  ledgerExplorerPageSchema,
  ledgerExplorerQuerySchema,
} from '@astra/contracts';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import {
  badQuery,
  describedRouter,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { activityPage } from './adminActivity.ts';
import { explorePage } from './ledgerExplorer.ts';

const descriptors = {
  adminLedgerExplorer: {
    method: 'get',
    path: '/api/admin/ledger',
    tag: 'Admin',
    summary:
      'Credit events from the log, oldest first, filtered by type, actor, user and time, paged by position',
    auth: 'unlocked_admin',
    query: ledgerExplorerQuerySchema,
    responses: ok(ledgerExplorerPageSchema),
    readsLog: true,
    errors: [badQuery('A bad filter, position or limit')],
  },
  adminActivity: {
    method: 'get',
    path: '/api/admin/activity',
    tag: 'Admin',
    summary:
      'What admins did (unlock attempts, locks, downloads, verify runs, rebuilds and admin commands), newest first, from the log',
    auth: 'unlocked_admin',
    query: adminActivityQuerySchema,
    responses: ok(adminActivityPageSchema),
    readsLog: true,
    errors: [badQuery('A bad position, type or limit')],
  },
} satisfies RouteDescriptors;

/**
 * The audit views over the event log (never the read models): the global ledger explorer
 * (`GET /api/admin/ledger`) and what admins did (`GET /api/admin/activity`).
 */
export const auditRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const store = deps.ledger.store;
  const admin = [requireUser, requireUnlockedAdmin];

  route('adminLedgerExplorer', ...admin, async (req, res) => {
    res.json(await explorePage(store, ledgerExplorerQuerySchema.parse(req.query)));
  });

  route('adminActivity', ...admin, async (req, res) => {
    res.json(await activityPage(store, adminActivityQuerySchema.parse(req.query)));
  });
});
