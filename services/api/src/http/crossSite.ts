import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

const safe = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sends from another site. Browsers say where a
 * request comes from (`Sec-Fetch-Site`, `Origin`); tools that are not browsers send neither and
 * are not a cross-site risk. Together with SameSite=Lax cookies this stops cross-site forgery.
 */
export const crossSiteProtection =
  (
    trustedOrigins: readonly string[] = [],
    /** `METHOD /path` of routes that other sites must reach and that protect themselves. */
    exemptRoutes: readonly string[] = [],
  ): RequestHandler =>
  (req, _res, next) => {
    if (safe.has(req.method) || exemptRoutes.includes(`${req.method} ${req.path}`)) return next();
    const fetchSite = req.get('sec-fetch-site');
    const origin = req.get('origin');
    if (fetchSite === 'same-origin' || fetchSite === 'none') return next();
    if (origin && origin !== 'null') {
      const host = req.get('host');
      let originHost: string | undefined;
      try {
        originHost = new URL(origin).host;
      } catch {
        originHost = undefined;
      }
      if (originHost === host || trustedOrigins.includes(origin)) return next();
      return next(new HttpError(403, 'cross_site_request', 'Cross-site requests are not allowed'));
    }
    if (fetchSite === 'cross-site' || fetchSite === 'same-site' || origin === 'null') {
      return next(new HttpError(403, 'cross_site_request', 'Cross-site requests are not allowed'));
    }
    next();
  };
