import { myLedgerQuerySchema } from '@astra/contracts';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { isSignedIn, requireUser } from '../../http/auth.ts';
import { deleteAccount } from './deletion.ts';
import { LEDGER_PAGE_SIZE, ledgerOf } from './queries.ts';
import { ledgerEntryView, meView, subscriptionContextOf } from './views.ts';

/** The signed-in user's account: who they are, their credit history, and deleting it. */
export function accountRoutes(deps: AppDeps) {
  const { read, sessions, consistency } = deps;
  const router = Router();
  const user = requireUser;

  router.get('/me', user, (req, res) => {
    res.json(meView(req.user!, subscriptionContextOf(deps)));
  });

  // The web app's question on every page: a visitor is an answer (200, null), not an error.
  router.get('/session', (req, res) => {
    res.json({ user: isSignedIn(req) ? meView(req.user!, subscriptionContextOf(deps)) : null });
  });

  router.get('/me/ledger', user, async (req, res) => {
    const { page, changesOnly } = myLedgerQuerySchema.parse(req.query);
    const { items, total } = await ledgerOf(read, req.user!.id, page, {
      changesOnly: changesOnly === 'true',
    });
    res.json({ items: items.map(ledgerEntryView), total, page, pageSize: LEDGER_PAGE_SIZE });
  });

  router.delete('/me', user, async (req, res) => {
    const userId = req.user!.id;
    // Signed out everywhere with it (its sessions are gone): a cookie that survives anywhere
    // belongs to nobody, 401.
    const position = await deleteAccount(deps, userId, req.context);
    await consistency.settle(req, position);
    await sessions.end(req, res);
    res.json({ ok: true, message: 'Account Deleted' });
  });

  return router;
}
