import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { type ApiOrigin, api } from './api';

/**
 * A store of the app: the browser's one, or on the server one per page drawn (`entry-server.tsx`),
 * whose requests go to `origin` with that visitor's cookie, never shared between visitors.
 */
export function makeStore(origin?: ApiOrigin) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        thunk: { extraArgument: origin },
        // The avatar upload's argument is a File, kept by RTK Query as the mutation's originalArgs.
        serializableCheck: { ignoredPaths: [/^api\.mutations\.[^.]+\.originalArgs$/] },
      }).concat(api.middleware),
  });
  // Enables refetchOnFocus / refetchOnReconnect for the queries that ask for it.
  if (!origin) setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
