import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express from 'express';
import './http/types.ts';
import type { AppDeps } from './dependencies.ts';
import { requireActiveAdmin, requireUser } from './http/auth.ts';
import { refuseDeepBodies } from './http/bodyDepth.ts';
import { crossSiteProtection } from './http/crossSite.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { idempotency } from './http/idempotency.ts';
import { parsesAsJson } from './http/rawBodies.ts';
import { requestContext } from './http/requestContext.ts';
import { apiRoutesOf } from './http/routeTable.ts';
import { ROBOTS_TXT, webAppRoutes } from './http/webApp.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { APPLE_CALLBACK_ROUTE, authRoutes } from './modules/auth/routes.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { feedbackRoutes } from './modules/feedback/routes.ts';
import { financeRoutes } from './modules/finance/routes.ts';
import { devMailRoutes } from './modules/mail/routes.ts';
import { checkoutRoutes, localCheckoutRoutes } from './modules/payments/checkoutRoutes.ts';
import { subscriptionRoutes } from './modules/payments/subscriptionRoutes.ts';
import { stripeWebhookRoutes } from './modules/payments/webhookRoutes.ts';
import { privacyRoutes } from './modules/privacy/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { readingRoutes } from './modules/readings/routes.ts';
import { openApiRoutes } from './modules/system/openapi.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { voiceRoutes } from './modules/voice/routes.ts';
import { requestLogger } from './observability/logger.ts';
import { metricsRoute } from './observability/metrics.ts';
import { securityHeaders } from './observability/securityHeaders.ts';

// Found through the workspace package, so that the sources and the bundle (dist/) agree.
export const webDist = join(
  dirname(createRequire(import.meta.url).resolve('@astra/web/package.json')),
  'dist',
);

export interface AppOptions {
  /** The built web app to serve (tests give a directory of their own); `web/dist` unless given. */
  webDist?: string;
}

export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const web = options.webDist ?? webDist;
  const app = express();
  app.disable('x-powered-by');
  // API answers are per-user and change with every write: hashing each body for an ETag costs
  // every request and spares nothing.
  app.set('etag', false);
  if (deps.config.NODE_ENV === 'production') app.set('trust proxy', 1);

  // First: the request id (answered even when a body does not parse), the request's duration and
  // its log line, and the security headers of every answer.
  app.use(requestContext);
  app.use(deps.metrics.timeRequests);
  app.use(requestLogger(deps.logger));
  app.use(
    securityHeaders({
      production: deps.config.NODE_ENV === 'production',
      indexHtml: join(web, 'index.html'),
      elevenLabs: deps.voice.provider === 'elevenlabs',
    }),
  );
  // Prometheus: on the public port only with METRICS_TOKEN (else METRICS_PORT, see server.ts).
  app.get('/metrics', metricsRoute(deps.metrics, deps.config.METRICS_TOKEN));

  // Stripe's webhook needs its raw body and is no browser: before the JSON API's middleware,
  // with its own 404 and JSON errors.
  app.use('/api', stripeWebhookRoutes(deps));
  app.use('/api/webhooks/stripe', apiNotFound, errorHandler);

  const api = express.Router();
  api.use(express.json({ limit: '100kb', type: (req) => parsesAsJson(req as express.Request) }));
  api.use(refuseDeepBodies); // before anything recurses over the body (idempotency's hash)
  api.use(deps.sessions.middleware);
  if (deps.replicas) api.use(deps.replicas.middleware);
  // Apple posts its sign-in answer from its own site; the signed state cookie protects that route.
  api.use(crossSiteProtection([new URL(deps.config.PUBLIC_URL).origin], [APPLE_CALLBACK_ROUTE]));
  api.use(idempotency(deps.appDb, deps.apiProcess.id));
  api.use(systemRoutes(deps));
  api.use(openApiRoutes({ config: deps.config, routes: apiRoutesOf(deps.catalog.records) }));
  if (deps.config.NODE_ENV !== 'production') api.use(devMailRoutes(deps));
  api.use(authRoutes(deps));
  api.use(accountRoutes(deps));
  api.use(privacyRoutes(deps));
  api.use(profileRoutes(deps));
  api.use(feedbackRoutes(deps));
  api.use(catalogRoutes(deps));
  api.use(readingRoutes(deps.catalog.records)(deps));
  api.use(voiceRoutes(deps));
  api.use(checkoutRoutes(deps));
  if (deps.payments.localCheckout) api.use(localCheckoutRoutes(deps.payments.localCheckout));
  api.use(subscriptionRoutes(deps));
  // Admin routes: the acting admin is checked on the write side (their user stream) first.
  api.use('/admin', requireUser, requireActiveAdmin(deps.ledger, deps.sessions));
  api.use(adminRoutes(deps));
  api.use(financeRoutes(deps));
  api.use(apiNotFound);
  api.use(errorHandler);
  app.use('/api', api);

  app.get('/robots.txt', (_req, res) => {
    res.type('text').set('Cache-Control', 'no-cache').send(ROBOTS_TXT);
  });
  if (existsSync(join(web, 'index.html'))) {
    app.use(webAppRoutes(web, { sessionCookie: deps.config.SESSION_COOKIE, logger: deps.logger }));
  } else {
    app.get('/', (_req, res) => {
      res
        .type('text')
        .send(
          'The API runs under /api. The web app is not built yet: npm run build --workspace web',
        );
    });
  }
  return app;
}
