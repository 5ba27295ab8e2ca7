import { pipeline } from 'node:stream/promises';
import { isoDay } from '@astra/ledger';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { profileOf } from '../accounts/queries.ts';
import { meView, subscriptionContextOf } from '../accounts/views.ts';
import { personalDataJson } from './personalData.ts';

/** The file a browser saves the export as: `astra-data-2026-01-31.json`. */
export const personalDataFilename = (at: Date) => `astra-data-${isoDay(at)}.json`;

/** The right of access and portability: the signed-in user's own data, and only theirs. */
export function privacyRoutes(deps: AppDeps) {
  const router = Router();

  router.get('/me/export', requireUser, async (req, res) => {
    const userId = req.user!.id;
    const profile = await profileOf(deps.read, userId);
    if (!profile) throw notFound('No such user');
    const exportedAt = deps.clock();
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${personalDataFilename(exportedAt)}"`,
    );
    res.setHeader('Cache-Control', 'no-store');
    const body = personalDataJson(
      { store: deps.ledger.store, read: deps.read, appDb: deps.appDb },
      meView(profile, subscriptionContextOf(deps)),
      exportedAt,
    );
    try {
      await pipeline(body, res);
    } catch (error) {
      // Headers are gone: the body is cut short (it does not parse, so the reader can tell).
      const clientLeft =
        req.socket.destroyed && (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
      if (!res.destroyed) res.destroy();
      // Ids only in the log line: the export's content is personal.
      if (!clientLeft) req.log?.error({ err: error, userId }, 'Personal data export failed');
    }
  });

  return router;
}
