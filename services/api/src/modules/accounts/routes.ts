import {
  ledgerPageSchema,
  meSchema,
  myLedgerQuerySchema,
  okMessageSchema,
  sessionSchema,
} from '@astra/contracts';
import type { AppDeps } from '../../dependencies.ts';
import { isSignedIn, requireUser } from '../../http/auth.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';
import { deleteAccount } from './deletion.ts';
import { LEDGER_PAGE_SIZE, ledgerOf } from './queries.ts';
import { ledgerEntryView, meView, subscriptionContextOf } from './views.ts';

const descriptors = {
  me: {
    method: 'get',
    path: '/api/me',
    tag: 'Account',
    summary: 'The signed-in user, balance, credit lots and subscription',
    auth: 'user',
    responses: ok(meSchema),
    errors: [],
  },
  session: {
    method: 'get',
    path: '/api/session',
    tag: 'Account',
    summary: 'Who is signed in: the `Me` object, or null for a visitor (always 200)',
    auth: 'none',
    responses: ok(sessionSchema),
    errors: [],
  },
  deleteAccount: {
    method: 'delete',
    path: '/api/me',
    tag: 'Account',
    summary: 'Deletes the account',
    auth: 'user',
    responses: ok(okMessageSchema),
    errors: [],
    command: true,
  },
  myLedger: {
    method: 'get',
    path: '/api/me/ledger',
    tag: 'Account',
    summary:
      "The user's own credit history, newest first, 50 a page; `changesOnly=true` leaves out entries of 0 credits",
    auth: 'user',
    query: myLedgerQuerySchema,
    responses: ok(ledgerPageSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'A bad `page` or `changesOnly`' }],
  },
} satisfies RouteDescriptors;

/** The signed-in user's account: who they are, their credit history, and deleting it. */
export const accountRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { read, sessions, consistency } = deps;
  const user = requireUser;

  route('me', user, (req, res) => {
    res.json(meView(req.user!, subscriptionContextOf(deps)));
  });

  // The web app's question on every page: a visitor is an answer (200, null), not an error.
  route('session', (req, res) => {
    res.json({ user: isSignedIn(req) ? meView(req.user!, subscriptionContextOf(deps)) : null });
  });

  route('myLedger', user, async (req, res) => {
    const { page, changesOnly } = myLedgerQuerySchema.parse(req.query);
    const { items, total } = await ledgerOf(read, req.user!.id, page, {
      changesOnly: changesOnly === 'true',
    });
    res.json({ items: items.map(ledgerEntryView), total, page, pageSize: LEDGER_PAGE_SIZE });
  });

  route('deleteAccount', user, async (req, res) => {
    const userId = req.user!.id;
    // Signed out everywhere with it (its sessions are gone): a cookie that survives anywhere
    // belongs to nobody, 401.
    const position = await deleteAccount(deps, userId, req.context);
    await consistency.settle(req, position);
    await sessions.end(req, res);
    res.json({ ok: true, message: 'Account Deleted' });
  });
});
