import type { renderMail as render } from './render.tsx';

/**
 * `renderMail`, with the templates and React Email (some 12 MB of heap) imported by the first
 * message rendered rather than at start: most processes send none for a long while.
 */
export const renderMail: typeof render = async (content, context) =>
  (await import('./render.tsx')).renderMail(content, context);
