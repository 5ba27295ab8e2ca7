import { type AppView, appsResponseSchema, type ReadingKindRecord } from '@astra/contracts';
import { voicePricingOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';

const appView = (record: ReadingKindRecord, creditCost: number): AppView => ({
  appId: record.appId,
  slug: record.slug,
  name: record.name,
  description: record.description,
  creditCost,
  voiceMinutes: record.voiceMinutes,
});

const descriptors = {
  apps: {
    method: 'get',
    path: '/api/apps',
    tag: 'Readings',
    summary: 'The reading apps (one per reading kind) with their credit cost now',
    auth: 'none',
    responses: ok(appsResponseSchema),
    errors: [],
  },
} satisfies RouteDescriptors;

/** What can be bought with credits: the reading apps and their prices in credits. */
export const catalogRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { catalog, clock, config } = deps;
  route('apps', (_req, res) => {
    // The catalogue port itself: a price change on its day shows at once (`read.apps` is the
    // same as of the last start).
    const now = clock();
    res.json({
      items: catalog.records.map((record) => appView(record, catalog.priceOf(record.slug, now))),
      voice: voicePricingOf(config),
      welcomeCredits: config.FREE_CREDITS,
    });
  });
});
