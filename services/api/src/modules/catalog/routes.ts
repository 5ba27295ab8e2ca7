import { type AppView, appsResponseSchema } from '@astra/contracts';
import type { App } from '@astra/projections';
import { voicePricingOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { describedRouter, ok, type RouteDescriptors } from '../../http/routeDescriptors.ts';

export const appView = (app: App): AppView => ({
  appId: app.app_id,
  slug: app.slug,
  name: app.app_name,
  description: app.description,
  creditCost: app.credit_cost_per_execution,
  voiceMinutes: app.voice_minutes_included,
});

const descriptors = {
  apps: {
    method: 'get',
    path: '/api/apps',
    tag: 'Readings',
    summary: 'The five reading apps with their credit cost',
    auth: 'none',
    responses: ok(appsResponseSchema),
    errors: [],
  },
} satisfies RouteDescriptors;

/** What can be bought with credits: the reading apps and their prices in credits. */
export const catalogRoutes = describedRouter(descriptors, ({ read, config }: AppDeps, route) => {
  route('apps', async (_req, res) => {
    const apps = await read.selectFrom('apps').selectAll().orderBy('app_id').execute();
    res.json({
      items: apps.map(appView),
      voice: voicePricingOf(config),
      welcomeCredits: config.FREE_CREDITS,
    });
  });
});
