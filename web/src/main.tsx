import './zodJitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// From react-router/dom: that provider passes react-dom's flushSync to the router (navigate's `flushSync`).
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { createAppRouter } from './app/router';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element not found');

const router = await createAppRouter();
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
  // A prerendered page (web/prerender.ts) arrives drawn: React takes over its markup.
  if (rootElement.hasChildNodes()) hydrateRoot(rootElement, app);
  else createRoot(rootElement).render(app);
});
