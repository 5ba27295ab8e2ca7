import './zodJitless';
import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// From react-router/dom: that provider passes react-dom's flushSync to the router (navigate's `flushSync`).
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { DRAWN_STATE } from './app/api';
import { readDrawnState } from './app/drawnState';
import { createAppRouter } from './app/router';
import { makeStore } from './app/store';

/** Calls `onStarted` once React has committed the first render (hydrated, or drawn afresh). */
function Started({ onStarted }: { onStarted: () => void }) {
  useEffect(onStarted, [onStarted]);
  return null;
}

/**
 * Starts the app in `root`. `drawn`: the server drew the page (`boot.ts`), and React takes over
 * its markup with the answers it was drawn with; otherwise the app draws the page itself.
 * Resolves once the page answers input.
 */
export async function start(root: HTMLElement, drawn: boolean): Promise<void> {
  const store = makeStore();
  const state = drawn ? readDrawnState() : null;
  if (state) store.dispatch({ type: DRAWN_STATE, payload: state.answers() });
  const router = await createAppRouter({ drawn });
  let started = () => {};
  const whenStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const app = (
    <StrictMode>
      <AppProviders store={store} drawnIn={state?.timeZone}>
        <RouterProvider router={router} />
      </AppProviders>
      <Started onStarted={started} />
    </StrictMode>
  );
  // A transition renders in slices that yield to the browser between them, instead of one long
  // task: a phone's main thread stays free for input while the first page is drawn.
  startTransition(() => {
    if (drawn) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
  await whenStarted;
}
