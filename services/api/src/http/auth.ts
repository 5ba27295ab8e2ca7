import type { ReadDb } from '@astra/projections';
import type { RequestHandler } from 'express';
import { HttpError, unauthorized } from './errors.ts';

/** Signed in with a live account: loads the profile into `req.user`, else 401. */
export const requireUser =
  (read: ReadDb): RequestHandler =>
  async (req, _res, next) => {
    const userId = req.session?.userId;
    if (!userId) return next(unauthorized());
    const profile = await read
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!profile || profile.status === 'deleted') {
      req.session.destroy(() => {});
      return next(unauthorized());
    }
    req.user = profile;
    req.context = {
      ...req.context,
      actor: { kind: 'user', userId, role: profile.role === 'admin' ? 'admin' : 'user' },
    };
    next();
  };

/** An admin whose session was unlocked with the admin password (run after `requireUser`). */
export const requireUnlockedAdmin: RequestHandler = (req, _res, next) => {
  if (req.user?.role !== 'admin') {
    return next(new HttpError(403, 'admin_required', 'Access denied: Admin privileges required'));
  }
  if ((req.session.adminUnlockedUntil ?? 0) < Date.now()) {
    return next(new HttpError(403, 'admin_locked', 'Enter the admin password to continue'));
  }
  next();
};
