import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';

export function systemRoutes({ ready }: AppDeps) {
  const router = Router();
  router.get('/health', async (_req, res) => {
    if (await ready()) res.json({ status: 'ok' });
    else res.status(503).json({ status: 'starting' });
  });
  return router;
}
