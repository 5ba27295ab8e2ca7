import type { Request, RequestHandler } from 'express';
import type { Ledger } from '../ledger/ledger.ts';
import { HttpError, unauthorized } from './errors.ts';
import type { Sessions } from './sessions.ts';

/** The session belongs to a user who is not deleted. */
export const isSignedIn = (req: Request) =>
  Boolean(req.session && req.user && req.user.status !== 'deleted');

/** Signed in with a live account (`req.user` loaded by the session), else 401 with `message`. */
export const requireSignedIn =
  (message?: string): RequestHandler =>
  (req, _res, next) => {
    const profile = req.user;
    if (!profile || !isSignedIn(req)) return next(unauthorized(message));
    req.context = {
      ...req.context,
      actor: {
        kind: 'user',
        userId: profile.id,
        role: profile.role === 'admin' ? 'admin' : 'user',
      },
    };
    next();
  };

export const requireUser = requireSignedIn();

const adminRequired = (message = 'Access denied: Admin privileges required') =>
  new HttpError(403, 'admin_required', message);

/**
 * Every `/api/admin` route: the acting admin as their own user stream says now (role admin,
 * status active), never the session's profile, a read model that may lag a block or a demotion.
 * An admin who lost the role or was blocked has their admin unlock ended on every session at
 * once (the block, demotion and deletion routes do the same as they decide).
 */
export const requireActiveAdmin =
  (ledger: Ledger, sessions: Sessions): RequestHandler =>
  async (req, _res, next) => {
    try {
      const { state } = await ledger.load('user', req.user!.id);
      if (state.role === 'admin' && state.status === 'active') {
        req.activeAdmin = true;
        return next();
      }
      if (req.session?.adminUnlockedUntil) await sessions.lockAdminOf(req.user!.id);
      const blocked = state.role === 'admin' && state.status === 'blocked';
      // A blocked admin trying the password is a refused unlock: on record, like the others.
      if (blocked && req.method === 'POST' && req.path === '/unlock') {
        await ledger.handle(
          'user',
          req.user!.id,
          {
            type: 'RecordAdminAction',
            action: { type: 'AdminUnlockRefused', data: { reason: 'blocked' } },
          },
          req.context,
        );
      }
      next(adminRequired(blocked ? 'Access denied: this account is blocked' : undefined));
    } catch (error) {
      next(error);
    }
  };

/** An admin, as `requireActiveAdmin` found them (a route outside its mount refuses everyone). */
export const requireAdmin: RequestHandler = (req, _res, next) =>
  next(req.activeAdmin ? undefined : adminRequired());

/** An active admin whose session was unlocked with the admin password in the last 8 hours. */
export const requireUnlockedAdmin: RequestHandler = (req, _res, next) => {
  if (!req.activeAdmin) return next(adminRequired());
  if ((req.session?.adminUnlockedUntil?.getTime() ?? 0) < Date.now()) {
    return next(new HttpError(403, 'admin_locked', 'Enter the admin password to continue'));
  }
  next();
};
