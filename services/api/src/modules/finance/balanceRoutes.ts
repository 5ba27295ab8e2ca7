import {
  balanceAtQuerySchema,
  totalBalanceAtSchema,
  userBalanceAtSchema,
  uuidIdSchema,
} from '@astra/contracts';
import { canonicalInstant, totalBalanceAt, userBalanceAt, userExists } from '@astra/projections';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import {
  badQuery,
  describedRouter,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';

/** `?at=` as a canonical instant; without it, now. */
const instantOf = (query: unknown) =>
  canonicalInstant(balanceAtQuerySchema.parse(query).at) ?? new Date().toISOString();

const descriptors = {
  adminUserBalanceAt: {
    method: 'get',
    path: '/api/admin/users/{id}/balance',
    tag: 'Admin',
    summary: "A user's balance at an instant, by replaying their credit stream up to it",
    auth: 'unlocked_admin',
    query: balanceAtQuerySchema,
    responses: ok(userBalanceAtSchema),
    readsLog: true,
    errors: [notFoundWhen('No such user'), badQuery('`at` is not an ISO instant')],
  },
  adminTotalBalanceAt: {
    method: 'get',
    path: '/api/admin/balance',
    tag: 'Admin',
    summary: 'Every account’s balance at an instant, summed, by replaying the log up to it',
    auth: 'unlocked_admin',
    query: balanceAtQuerySchema,
    responses: ok(totalBalanceAtSchema),
    readsLog: true,
    errors: [badQuery('`at` is not an ISO instant')],
  },
} satisfies RouteDescriptors;

/**
 * Balances as of an instant (events that happened at or before it), by replaying credit streams:
 * one user's (`GET /api/admin/users/:id/balance`) or every account's (`GET /api/admin/balance`).
 */
export const balanceRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const store = deps.ledger.store;
  const admin = [requireUser, requireUnlockedAdmin];

  route('adminUserBalanceAt', ...admin, async (req, res) => {
    const userId = pathId(uuidIdSchema, req.params.id, 'No such user');
    const at = instantOf(req.query);
    if (!(await userExists(store, userId))) throw notFound('No such user');
    res.json(await userBalanceAt(store, deps.snapshots, userId, at));
  });

  route('adminTotalBalanceAt', ...admin, async (req, res) => {
    res.json(await totalBalanceAt(store, instantOf(req.query)));
  });
});
