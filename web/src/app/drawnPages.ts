import { matchPath } from 'react-router';

/**
 * The pages the server draws for each visit (`entry-server.tsx`), as route patterns: the public
 * pages, and for a session the pages that show what the visitor has. A phone shows them as soon
 * as their HTML arrives; the app starts when the visitor first reaches for a control (`boot.ts`).
 * The other pages are forms and tools, drawn by the app in the browser.
 */
export const DRAWN_PAGES = [
  '/',
  '/pricing',
  '/legal',
  '/terms-of-service',
  '/privacy-policy',
  '/impressum',
  '/app',
  '/library',
  '/natalbirthchart_result/:readingId',
  '/compatibility_result/:readingId',
] as const;

export const isDrawnPage = (pathname: string) =>
  DRAWN_PAGES.some((pattern) => matchPath(pattern, pathname) !== null);
