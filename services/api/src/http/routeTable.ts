import { type ReadingKindRecord, readingKindRecords } from '@astra/contracts';
import { accountRoutes } from '../modules/accounts/routes.ts';
import { adminRoutes } from '../modules/admin/routes.ts';
import { authRoutes } from '../modules/auth/routes.ts';
import { catalogRoutes } from '../modules/catalog/routes.ts';
import { feedbackRoutes } from '../modules/feedback/routes.ts';
import { financeRoutes } from '../modules/finance/routes.ts';
import { devMailRoutes } from '../modules/mail/routes.ts';
import { checkoutRoutes, localCheckoutRoutes } from '../modules/payments/checkoutRoutes.ts';
import { subscriptionRoutes } from '../modules/payments/subscriptionRoutes.ts';
import { stripeWebhookRoutes } from '../modules/payments/webhookRoutes.ts';
import { privacyRoutes } from '../modules/privacy/routes.ts';
import { profileRoutes } from '../modules/profile/routes.ts';
import { readingRoutes } from '../modules/readings/routes.ts';
import { openApiRoutes } from '../modules/system/openapi.ts';
import { systemRoutes } from '../modules/system/routes.ts';
import { voiceRoutes } from '../modules/voice/routes.ts';
import type { ApiRoute } from './routeDescriptors.ts';

/**
 * The HTTP API's route table for a catalogue of these reading kinds: the descriptors of every
 * route the server mounts under `/api`, collected from the routers that handle them (`app.ts`
 * mounts the same routers). The OpenAPI document is built from it, and the API tests check every
 * answer against it.
 */
export const apiRoutesOf = (kinds: readonly ReadingKindRecord[]): readonly ApiRoute[] =>
  [
    systemRoutes,
    openApiRoutes,
    devMailRoutes,
    authRoutes,
    accountRoutes,
    profileRoutes,
    privacyRoutes,
    feedbackRoutes,
    catalogRoutes,
    readingRoutes(kinds),
    voiceRoutes,
    checkoutRoutes,
    localCheckoutRoutes,
    stripeWebhookRoutes,
    subscriptionRoutes,
    adminRoutes,
    financeRoutes,
  ].flatMap((router) => router.routes);

/** The route table of the shipped reading kinds. */
export const apiRoutes = apiRoutesOf(readingKindRecords);

const specificity = (route: ApiRoute) => (route.path.match(/\{/g) ?? []).length;

/** A finder of a request's route (`GET`, `/api/readings/abc?x=1`): literal paths before `{param}` ones. */
export function routeFinder(routes: readonly ApiRoute[]) {
  const matchers = [...routes]
    .sort((a, b) => specificity(a) - specificity(b))
    .map((route) => ({
      route,
      pattern: new RegExp(
        `^${route.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
      ),
    }));
  return (method: string, url: string): ApiRoute | undefined => {
    const path = url.split('?')[0] ?? '';
    const lower = method.toLowerCase();
    return matchers.find((m) => m.route.method === lower && m.pattern.test(path))?.route;
  };
}

/** The route of a request in the shipped route table. */
export const findRoute = routeFinder(apiRoutes);
