import { pipeline } from 'node:stream/promises';
import { personalDataExportSchema } from '@astra/contracts';
import { isoDay } from '@astra/ledger';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';
import { profileOf } from '../accounts/queries.ts';
import { meView, subscriptionContextOf } from '../accounts/views.ts';
import { personalDataJson } from './personalData.ts';

/** The file a browser saves the export as: `astra-data-2026-01-31.json`. */
export const personalDataFilename = (at: Date) => `astra-data-${isoDay(at)}.json`;

const descriptors = {
  exportMyData: {
    method: 'get',
    path: '/api/me/export',
    tag: 'Account',
    summary:
      'Everything held about the signed-in user, as a JSON download (`Content-Disposition: attachment`), streamed: profile, credit events with their money, payments, readings with inputs, texts and voice sessions, feedback',
    auth: 'user',
    responses: ok(
      personalDataExportSchema,
      'The file `astra-data-<date>.json` (`Cache-Control: no-store`)',
    ),
    errors: [],
  },
} satisfies RouteDescriptors;

/** The right of access and portability: the signed-in user's own data, and only theirs. */
export const privacyRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  route('exportMyData', requireUser, async (req, res) => {
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
});
