import { timingSafeEqual } from 'node:crypto';
import {
  adminCreditRequestSchema,
  adminCreditResultSchema,
  adminMessages,
  adminSessionSchema,
  adminUnlockRequestSchema,
  adminUnlockResponseSchema,
  adminUserLedgerSchema,
  balanceChangedErrorSchema,
  insufficientCreditsErrorSchema,
  okMessageSchema,
  uuidIdSchema,
} from '@astra/contracts';
import { isDomainError } from '@astra/ledger';
import type { RequestHandler } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireAdmin, requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import { limited, signInLimit } from '../../http/rateLimits.ts';
import {
  combinedRouter,
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
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

const descriptors = {
  adminUnlock: {
    method: 'post',
    path: '/api/admin/unlock',
    tag: 'Admin',
    summary: 'Unlocks the admin routes for this session (8 hours) with ADMIN_PASSWORD',
    auth: 'user',
    body: json(adminUnlockRequestSchema),
    responses: ok(adminUnlockResponseSchema),
    errors: [
      { status: 403, code: 'admin_required', when: 'The user is not an admin' },
      { status: 403, code: 'incorrect_password', when: 'A wrong password' },
      {
        status: 503,
        code: 'admin_password_not_configured',
        when: 'ADMIN_PASSWORD is not set',
      },
    ],
    command: true,
    rateLimited: 10,
  },
  adminSession: {
    method: 'get',
    path: '/api/admin/session',
    tag: 'Admin',
    summary: "Whether this admin's session is unlocked, and until when",
    auth: 'user',
    responses: ok(adminSessionSchema),
    errors: [{ status: 403, code: 'admin_required', when: 'The user is not an admin' }],
  },
  adminLock: {
    method: 'post',
    path: '/api/admin/lock',
    tag: 'Admin',
    summary: 'Locks the admin routes of this session again',
    auth: 'user',
    responses: ok(okMessageSchema),
    errors: [{ status: 403, code: 'admin_required', when: 'The user is not an admin' }],
  },
  adminAdjustCredits: {
    method: 'post',
    path: '/api/admin/users/{id}/credits',
    tag: 'Admin',
    summary: "Adds credits to, or deducts them from, a user's balance",
    auth: 'unlocked_admin',
    body: json(adminCreditRequestSchema),
    responses: ok(adminCreditResultSchema),
    errors: [
      {
        status: 409,
        code: 'self_action',
        when: "The admin's own account: another admin must adjust it",
      },
      { status: 404, code: 'user_not_found', when: 'No credit account with that id' },
      {
        status: 409,
        code: 'insufficient_credits',
        when: 'A deduction larger than the balance',
        schema: insufficientCreditsErrorSchema,
      },
      {
        status: 409,
        code: 'balance_changed',
        when: 'The balance is no longer `expectedBalance`, the one the admin saw',
        schema: balanceChangedErrorSchema,
      },
      { status: 409, code: 'account_closed', when: 'The account was deleted' },
      {
        status: 409,
        code: 'balance_limit',
        when: 'The balance or total granted would pass 1,000,000,000 credits',
      },
    ],
    command: true,
  },
  adminUserLedger: {
    method: 'get',
    path: '/api/admin/users/{id}/ledger',
    tag: 'Admin',
    summary: "A user's full credit history with actors, newest first",
    auth: 'unlocked_admin',
    responses: ok(adminUserLedgerSchema),
    errors: [notFoundWhen('No such user')],
  },
} satisfies RouteDescriptors;

const adminAccessRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { config, ledger, read, sessions, consistency } = deps;
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
  route('adminUnlock', signInLimit(10, unlockLimited), user, requireAdmin, async (req, res) => {
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
  });

  route('adminSession', user, requireAdmin, (req, res) => {
    const until = req.session?.adminUnlockedUntil ?? null;
    const unlocked = until !== null && until.getTime() > Date.now();
    res.json({ unlocked, unlockedUntil: unlocked ? until.toISOString() : null });
  });

  route('adminLock', user, requireAdmin, async (req, res) => {
    await sessions.lockAdmin(req);
    await recordAdminActionAfter(ledger, req, { type: 'AdminLocked', data: {} });
    res.json({ ok: true, message: 'Admin panel locked' });
  });

  route('adminAdjustCredits', user, requireUnlockedAdmin, async (req, res) => {
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

  route('adminUserLedger', user, requireUnlockedAdmin, async (req, res) => {
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
});

/** The admin panel's routes: unlocking, credits, users and the dashboard's figures. */
export const adminRoutes = combinedRouter(adminAccessRoutes, adminUserRoutes, adminStatsRoutes);
