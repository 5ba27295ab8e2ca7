import { useSyncExternalStore } from 'react';

const noChanges = () => () => {};

/**
 * False while React takes over a page prerendered at build time (`web/prerender.ts`), true from
 * the render after. A control that only works once the scripts run is disabled until then: a
 * choice made on the drawn page before would be undone by the hydration, without a word.
 * A page drawn by the browser itself is hydrated from its first render.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
