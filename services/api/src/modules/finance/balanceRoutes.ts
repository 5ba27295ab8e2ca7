import { balanceAtQuerySchema, uuidIdSchema } from '@astra/contracts';
import { canonicalInstant, totalBalanceAt, userBalanceAt, userExists } from '@astra/projections';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';

/** `?at=` as a canonical instant; without it, now. */
const instantOf = (query: unknown) =>
  canonicalInstant(balanceAtQuerySchema.parse(query).at) ?? new Date().toISOString();

/**
 * Balances as of an instant (events that happened at or before it), by replaying credit streams:
 * one user's (`GET /api/admin/users/:id/balance`) or every account's (`GET /api/admin/balance`).
 */
export function balanceRoutes(deps: AppDeps) {
  const store = deps.ledger.store;
  const router = Router();
  const admin = [requireUser, requireUnlockedAdmin];

  router.get('/admin/users/:id/balance', ...admin, async (req, res) => {
    const userId = pathId(uuidIdSchema, req.params.id, 'No such user');
    const at = instantOf(req.query);
    if (!(await userExists(store, userId))) throw notFound('No such user');
    res.json(await userBalanceAt(store, deps.snapshots, userId, at));
  });

  router.get('/admin/balance', ...admin, async (req, res) => {
    res.json(await totalBalanceAt(store, instantOf(req.query)));
  });
  return router;
}
