import type { AppView } from '@astra/contracts';
import type { App } from '@astra/projections';
import { Router } from 'express';
import { voicePricingOf } from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';

export const appView = (app: App): AppView => ({
  appId: app.app_id,
  slug: app.slug,
  name: app.app_name,
  description: app.description,
  creditCost: app.credit_cost_per_execution,
  voiceMinutes: app.voice_minutes_included,
});

/** What can be bought with credits: the reading apps and their prices in credits. */
export function catalogRoutes({ read, config }: AppDeps) {
  const router = Router();

  router.get('/apps', async (_req, res) => {
    const apps = await read.selectFrom('apps').selectAll().orderBy('app_id').execute();
    res.json({
      items: apps.map(appView),
      voice: voicePricingOf(config),
      welcomeCredits: config.FREE_CREDITS,
    });
  });

  return router;
}
