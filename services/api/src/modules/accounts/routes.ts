import { devLoginRequestSchema, pageQuerySchema } from '@astra/contracts';
import { Router } from 'express';
import { devSignInEnabled } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { signInLimit } from '../../http/rateLimits.ts';
import { startSession } from '../../http/sessions.ts';
import { LEDGER_PAGE_SIZE, ledgerOf, profileOf } from './queries.ts';
import { signIn } from './registration.ts';
import { ledgerEntryView, meView } from './views.ts';

export function accountRoutes({ config, ledger, read, sessions, consistency }: AppDeps) {
  const router = Router();
  const user = requireUser(read);
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
    await startSession(req, userId);
    await consistency.settle(req, position);
    const profile = await profileOf(read, userId);
    if (!profile) throw new Error(`Profile of ${userId} not readable after sign-in`);
    res.json(meView(profile));
  });

  router.post('/auth/logout', async (req, res) => {
    const userId = req.session.userId;
    if (userId) await sessions.destroyAllOf(userId);
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie(config.SESSION_COOKIE);
    res.json({ ok: true });
  });

  router.get('/me', consistency.ownWrites, user, (req, res) => {
    res.json(meView(req.user!));
  });

  router.get('/me/ledger', consistency.ownWrites, user, async (req, res) => {
    const { page } = pageQuerySchema.parse(req.query);
    const { items, total } = await ledgerOf(read, req.user!.id, page);
    res.json({ items: items.map(ledgerEntryView), total, page, pageSize: LEDGER_PAGE_SIZE });
  });

  return router;
}
