import { readDrawnState } from './app/drawnState';
import { climbVisitorCounter } from './features/landing/visitorCounter';
import { readPendingPurchase } from './features/pricing/pendingPurchase';
import { startOnFirstIntent } from './ui/startOnFirstIntent';

/**
 * The page's one script. A page the server drew (`services/api/src/http/drawnPages.ts`) is
 * complete without the app: it is read, scrolled and followed by its links at once, and the app
 * (some 300 KB of scripts, a second of a phone's processor) starts when the visitor first
 * reaches for a control (`startOnFirstIntent`), or at once when the page needs it: drawn in a
 * state the app carries on (a reading being written), or with a purchase waiting to resume.
 * Any other page is drawn by the app at once. A fragment (a sign-in's tokens) changes the first
 * render, so such a page is drawn afresh.
 */
const root = document.getElementById('root');
if (!root) throw new Error('Root element not found');
const start = (drawn: boolean) => import('./main').then((app) => app.start(root, drawn));

const drawn = readDrawnState();
if (!drawn || window.location.hash !== '') await start(false);
else if (drawn.startAtOnce || readPendingPurchase()) await start(true);
else startOnFirstIntent(root, () => start(true), [climbVisitorCounter(root)]);
