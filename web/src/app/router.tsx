import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/auth/RequireAuth';
import LandingPage from '../features/landing/LandingPage';
import { AppShell } from '../layout/AppShell';
import { RouteError } from '../layout/RouteError';
import { keyThisHistoryEntry } from './historyEntryKey';

/** Each page is its own chunk: the landing page never downloads the dashboard or profile. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const publicRoutes: RouteObject[] = [
  // In the first chunk: '/' is where most visits start, and a lazy route would wait one more round trip.
  { index: true, Component: LandingPage },
  { path: 'auth', lazy: page(() => import('../features/auth/AuthPage')) },
  { path: 'auth/callback', lazy: page(() => import('../features/auth/AuthCallbackPage')) },
  { path: 'pricing', lazy: page(() => import('../features/pricing/PricingPage')) },
  { path: 'legal', lazy: page(() => import('../features/legal/LegalHubPage')) },
  { path: 'terms-of-service', lazy: page(() => import('../features/legal/TermsPage')) },
  { path: 'privacy-policy', lazy: page(() => import('../features/legal/PrivacyPage')) },
  { path: 'impressum', lazy: page(() => import('../features/legal/ImpressumPage')) },
  // Protected, but by the page itself: its refusals carry the spec's admin messages (§4, §8).
  { path: 'admin', lazy: page(() => import('../features/admin/AdminPage')) },
  // Development's mailbox: the e-mails the server kept instead of sending (404 in production).
  { path: 'dev/mail', lazy: page(() => import('../features/devMail/DevMailPage')) },
];

const tarotForm = page(() => import('../features/readings/tarot/TarotTraditionalFormPage'));

const protectedRoutes: RouteObject[] = [
  { path: 'onboarding', lazy: page(() => import('../features/onboarding/OnboardingPage')) },
  { path: 'app', lazy: page(() => import('../features/dashboard/DashboardPage')) },
  { path: 'profile', lazy: page(() => import('../features/profile/ProfilePage')) },
  { path: 'credits', lazy: page(() => import('../features/credits/CreditHistoryPage')) },
  { path: 'library', lazy: page(() => import('../features/library/LibraryPage')) },
  { path: 'about', lazy: page(() => import('../features/about/AboutPage')) },
  {
    path: 'natalbirthchart',
    lazy: page(() => import('../features/readings/natalChart/NatalChartFormPage')),
  },
  { path: 'tarot-traditional', lazy: tarotForm },
  // Spec §2: one part of the product links here; both addresses open the same form.
  { path: 'app/tarot-traditional', lazy: tarotForm },
  {
    path: 'compatibility',
    lazy: page(() => import('../features/readings/compatibility/CompatibilityFormPage')),
  },
  {
    path: 'tarot-celtic-cross',
    lazy: page(() => import('../features/readings/celticCross/CelticCrossFormPage')),
  },
  {
    path: 'lifepathnumber',
    lazy: page(() => import('../features/readings/lifePath/LifePathFormPage')),
  },
  { path: 'tarot-result', lazy: page(() => import('../features/readings/tarot/TarotResultPage')) },
  {
    path: 'tarot-celtic-cross-result',
    lazy: page(() => import('../features/readings/celticCross/CelticCrossResultPage')),
  },
  {
    path: 'lifepathnumber-result',
    lazy: page(() => import('../features/readings/lifePath/LifePathResultPage')),
  },
  {
    path: 'natalbirthchart_result/:readingId',
    lazy: page(() => import('../features/readings/natalChart/NatalChartResultPage')),
  },
  {
    path: 'compatibility_result/:readingId',
    lazy: page(() => import('../features/readings/compatibility/CompatibilityResultPage')),
  },
  { path: 'success', lazy: page(() => import('../features/pricing/PaymentSuccessPage')) },
  { path: 'cancel', lazy: page(() => import('../features/pricing/PaymentCancelPage')) },
  // Development's stand-in for Stripe's hosted checkout (when Stripe is not configured).
  {
    path: 'checkout/local/:sessionId',
    lazy: page(() => import('../features/checkout/LocalCheckoutPage')),
  },
];

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    // Above the shell: the error screen brings its own <main>.
    errorElement: <RouteError standalone />,
    HydrateFallback: () => null,
    children: [
      {
        // Page errors render inside the shell, so header and footer stay usable.
        errorElement: <RouteError />,
        children: [
          ...publicRoutes,
          { element: <RequireAuth />, children: protectedRoutes },
          { path: '*', lazy: page(() => import('../layout/NotFoundPage')) },
        ],
      },
    ],
  },
];

/**
 * Loads the lazy route modules of the address before the router starts, so that its first render
 * is the page itself rather than the empty `HydrateFallback`: taking over a page drawn on the
 * server (`entry-server.tsx`) needs the same markup on the first render.
 */
async function loadRoutesOf(location: Location) {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}

/**
 * `drawn`: the page arrived drawn and may have been scrolled before the scripts ran. Opened
 * anew, the router starts with hydration data, so it leaves the page where it is instead of
 * scrolling it to the top. Back, forward or reload: the router restores the entry's saved position
 * itself, because the browser's own restoring may happen while the page is still half parsed and
 * too short, and stop there.
 */
export async function createAppRouter({ drawn }: { drawn: boolean }) {
  // Before the router reads the entry: its scroll position is its own (see historyEntryKey.ts).
  const newEntry = keyThisHistoryEntry();
  await loadRoutesOf(window.location);
  return createBrowserRouter(
    routes,
    drawn && newEntry ? { hydrationData: { loaderData: {} } } : {},
  );
}
