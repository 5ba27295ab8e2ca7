import type { Request, RequestHandler } from 'express';
import { HttpError, unauthorized } from './errors.ts';

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

/** A user with the admin role, unlocked or not (run after `requireUser`). */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (req.user?.role !== 'admin') {
    return next(new HttpError(403, 'admin_required', 'Access denied: Admin privileges required'));
  }
  next();
};

/** An admin whose session was unlocked with the admin password (run after `requireUser`). */
export const requireUnlockedAdmin: RequestHandler = (req, _res, next) => {
  if (req.user?.role !== 'admin') {
    return next(new HttpError(403, 'admin_required', 'Access denied: Admin privileges required'));
  }
  if ((req.session?.adminUnlockedUntil?.getTime() ?? 0) < Date.now()) {
    return next(new HttpError(403, 'admin_locked', 'Enter the admin password to continue'));
  }
  next();
};
