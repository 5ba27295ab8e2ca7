import type { RequestHandler } from 'express';
import { HttpError, unauthorized } from './errors.ts';

/** Signed in with a live account (`req.user` loaded by the session), else 401 with `message`. */
export const requireSignedIn =
  (message?: string): RequestHandler =>
  (req, _res, next) => {
    const profile = req.user;
    if (!req.session || !profile || profile.status === 'deleted') {
      return next(unauthorized(message));
    }
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
