/**
 * The API requests a page makes as soon as it draws. The server names them in the page's HTML
 * (`<link rel="preload" as="fetch">`, see docs/operations.md) so that they start with the HTML
 * instead of after the scripts, the session and the page's chunk. Each must be the exact URL
 * the page's query asks for (RTK Query's, with its parameters in order), or the browser fetches
 * it twice: the browser test `e2e/firstLoad.spec.ts` checks that each is fetched once.
 * `:name` stands for the page address's parameter of that name.
 */

/** Every page: the sign-in state (the header, `RequireAuth`) and the site's details (the footer). */
export const everyPageRequests = ['/api/session', '/api/site'] as const;

/** By route pattern (as in `router.tsx`): the page's own first requests, for a signed-in visit. */
export const firstRequests: Readonly<Record<string, readonly string[]>> = {
  '/app': ['/api/apps'],
  '/library': ['/api/library?page=1'],
  // Not the reading's voice sessions: those are asked for only once its text is complete.
  '/natalbirthchart_result/:readingId': ['/api/readings/:readingId'],
  '/compatibility_result/:readingId': ['/api/readings/:readingId'],
};
