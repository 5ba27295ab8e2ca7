import { timingSafeEqual } from 'node:crypto';
import {
  adminCreditRequestSchema,
  adminMessages,
  adminUnlockRequestSchema,
  uuidIdSchema,
} from '@astra/contracts';
import { isDomainError } from '@astra/ledger';
import { type RequestHandler, Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireAdmin, requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import { limited, signInLimit } from '../../http/rateLimits.ts';
import { ledgerOf, profileOf } from '../accounts/queries.ts';
import { ledgerEntryView } from '../accounts/views.ts';
import { recordAdminActionAfter } from './adminRecords.ts';
import { adminStatsRoutes } from './stats.ts';
import { adminUserRoutes } from './users.ts';

const UNLOCK_HOURS = 8;
/** User ids are UUIDs: any other shape is no user (404), and never reaches SQL. */
const userIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'No such user');

const samePassword = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function adminRoutes(deps: AppDeps) {
  const { config, ledger, read, sessions, consistency } = deps;
  const router = Router();
  const user = requireUser;

  /**
   * Over the unlock limit: 429, and the refusal recorded with the admin as actor. Only the first
   * refusal of each window (a minute) and address is recorded: a flood of attempts writes one event
   * a minute, not one per attempt.
   */
  const unlockLimited: RequestHandler = async (req, res) => {
    const info = (req as { rateLimit?: { used: number; limit: number } }).rateLimit;
    if (req.user && (!info || info.used === info.limit + 1)) {
      // The refusal stands whether or not it could be recorded.
      await recordAdminActionAfter(ledger, req, {
        type: 'AdminUnlockRefused',
        data: { reason: 'rate_limited' },
      });
    }
    res.status(429).json(limited);
  };

  // Every route here runs after `requireActiveAdmin` (app.ts): an active admin on the write side.
  router.post(
    '/admin/unlock',
    signInLimit(10, unlockLimited),
    user,
    requireAdmin,
    async (req, res) => {
      if (!config.ADMIN_PASSWORD) {
        throw new HttpError(
          503,
          'admin_password_not_configured',
          'The admin password is not configured (ADMIN_PASSWORD)',
        );
      }
      const { password } = adminUnlockRequestSchema.parse(req.body);
      // Every attempt is an event on the admin's own stream, with the admin as actor.
      if (!samePassword(password, config.ADMIN_PASSWORD)) {
        await ledger.handle(
          'user',
          req.user!.id,
          { type: 'RecordAdminUnlock', succeeded: false },
          req.context,
        );
        throw new HttpError(403, 'incorrect_password', adminMessages.incorrectPassword);
      }
      const until = new Date(Date.now() + UNLOCK_HOURS * 3_600_000);
      await ledger.handle(
        'user',
        req.user!.id,
        { type: 'RecordAdminUnlock', succeeded: true, until: until.toISOString() },
        req.context,
      );
      await sessions.unlockAdmin(req, until);
      // The dashboard's money folds the log the first time it is asked: start it now, while the
      // panel opens, so the Revenue card rarely waits for it.
      void deps.monthMoney.catchUp().catch((error) => {
        req.log.warn({ err: error }, "This month's money could not be folded yet");
      });
      res.json({
        ok: true,
        message: adminMessages.accessGranted,
        unlockedUntil: until.toISOString(),
      });
    },
  );

  router.get('/admin/session', user, requireAdmin, (req, res) => {
    const until = req.session?.adminUnlockedUntil ?? null;
    const unlocked = until !== null && until.getTime() > Date.now();
    res.json({ unlocked, unlockedUntil: unlocked ? until.toISOString() : null });
  });

  router.post('/admin/lock', user, requireAdmin, async (req, res) => {
    await sessions.lockAdmin(req);
    await recordAdminActionAfter(ledger, req, { type: 'AdminLocked', data: {} });
    res.json({ ok: true, message: 'Admin panel locked' });
  });

  router.use(adminUserRoutes(deps));

  router.post('/admin/users/:id/credits', user, requireUnlockedAdmin, async (req, res) => {
    const userId = userIdOf(req.params.id);
    const { amount, reason, expectedBalance } = adminCreditRequestSchema.parse(req.body);
    try {
      // Decided on the credit stream: the balance the admin saw (when sent) and whose account it is.
      const handled = await ledger.handle(
        'credits',
        userId,
        {
          type: 'AdjustCredits',
          amount,
          reason,
          adminId: req.user!.id,
          adjustmentId: commandIdOf(req, 'adjustment'),
          ...(expectedBalance === undefined ? {} : { expectedBalance }),
        },
        req.context,
      );
      await consistency.settle(req, handled.position);
      res.json({
        userId,
        amount,
        remainingCredits: handled.state.balance,
        position: String(handled.position),
        message:
          amount > 0
            ? `Added ${amount} credits successfully`
            : `Deducted ${-amount} credits successfully`,
      });
    } catch (error) {
      // A deduction larger than the balance conflicts with the account's state; nothing is paid here.
      if (isDomainError(error) && error.code === 'insufficient_credits') {
        throw new HttpError(
          409,
          'insufficient_credits',
          `Cannot deduct ${-amount} credits: the balance is ${String(error.details.balance)}.`,
          error.details,
        );
      }
      throw error;
    }
  });

  router.get('/admin/users/:id/ledger', user, requireUnlockedAdmin, async (req, res) => {
    const userId = userIdOf(req.params.id);
    const profile = await profileOf(read, userId);
    if (!profile) throw notFound('No such user');
    const { items, total } = await ledgerOf(read, userId);
    res.json({
      user: {
        id: profile.id,
        email: profile.email,
        fullName: profile.erased_at ? adminMessages.erasedUser : profile.full_name,
      },
      items: items.map(ledgerEntryView),
      total,
    });
  });

  router.use(adminStatsRoutes(deps));
  return router;
}
