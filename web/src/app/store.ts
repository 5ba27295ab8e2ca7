import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from './api';

export const store = configureStore({
  reducer: { [api.reducerPath]: api.reducer },
  middleware: (getDefaultMiddleware) =>
    getDefaultMiddleware({
      // The avatar upload's argument is a File, kept by RTK Query as the mutation's originalArgs.
      serializableCheck: { ignoredPaths: [/^api\.mutations\.[^.]+\.originalArgs$/] },
    }).concat(api.middleware),
});

// Enables refetchOnFocus / refetchOnReconnect for the queries that ask for it.
setupListeners(store.dispatch);

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
