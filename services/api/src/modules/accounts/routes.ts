import { devLoginRequestSchema, pageQuerySchema } from '@astra/contracts';
import { Router } from 'express';
import { devSignInEnabled } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { signInLimit } from '../../http/rateLimits.ts';
import { LEDGER_PAGE_SIZE, ledgerOf, profileOf } from './queries.ts';
import { signIn } from './registration.ts';
import { ledgerEntryView, meView } from './views.ts';

/** The projections lag beyond the read-your-writes wait: the account exists, its view not yet. */
const accountNotReadyYet = () =>
  new HttpError(503, 'not_ready', 'Your account is being set up. Please try again in a moment.');

export function accountRoutes({ config, ledger, read, sessions, consistency }: AppDeps) {
  const router = Router();
  const user = requireUser;
  const policy = { freeCredits: config.FREE_CREDITS, adminEmails: config.ADMIN_EMAILS };

  router.post('/auth/dev-login', signInLimit(60), async (req, res) => {
    if (!devSignInEnabled(config)) throw notFound();
    const body = devLoginRequestSchema.parse(req.body);
    const { userId, position } = await signIn(
      ledger,
      { email: body.email, fullName: body.fullName ?? null, provider: 'dev' },
      policy,
      req.context,
    );
    await sessions.start(req, res, userId);
    await consistency.settle(req, position);
    const profile = await profileOf(read, userId);
    if (!profile) throw accountNotReadyYet();
    res.json(meView(profile));
  });

  router.post('/auth/logout', async (req, res) => {
    // Signing out ends every session of the user, on every device.
    if (req.session) await sessions.endAllOf(req.session.userId);
    await sessions.end(req, res);
    res.json({ ok: true });
  });

  router.get('/me', user, (req, res) => {
    res.json(meView(req.user!));
  });

  router.get('/me/ledger', user, async (req, res) => {
    const { page } = pageQuerySchema.parse(req.query);
    const { items, total } = await ledgerOf(read, req.user!.id, page);
    res.json({ items: items.map(ledgerEntryView), total, page, pageSize: LEDGER_PAGE_SIZE });
  });

  return router;
}
