import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/AppProviders';
import { routes } from './app/router';

/**
 * The pages drawn at build time (`prerender.ts`): public, the same for every visitor, drawn as a
 * visitor whose session is not known yet (the client's first render, before `GET /api/me`).
 */
export const PRERENDERED_PATHS = [
  '/',
  '/pricing',
  '/legal',
  '/terms-of-service',
  '/privacy-policy',
  '/impressum',
] as const;

/** The markup of `<div id="root">` for a path, with emotion's `<style>` elements inline. */
export async function render(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  // Loads the path's lazy route modules, as the client does before hydrating (`router.tsx`).
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response || context.statusCode !== 200) {
    throw new Error(`Prerendering ${path} did not draw its page`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
}
