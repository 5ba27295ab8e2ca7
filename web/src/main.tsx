import './zodJitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// From react-router/dom: that provider passes react-dom's flushSync to the router (navigate's `flushSync`).
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { createAppRouter } from './app/router';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element not found');

// A page prerendered at build time (web/prerender.ts) arrives drawn, and React takes over its
// markup. The server sends one only for an address without a query; a fragment (a sign-in's
// tokens) changes the first render too, so such a page is drawn afresh.
const prerendered = rootElement.hasChildNodes() && window.location.hash === '';
const router = await createAppRouter({ prerendered });
const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);

// A transition renders in slices that yield to the browser between them, instead of one long
// task: a phone's main thread stays free for input while the first page is drawn.
startTransition(() => {
  if (prerendered) hydrateRoot(rootElement, app);
  else createRoot(rootElement).render(app);
});
