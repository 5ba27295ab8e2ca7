import { createContext, useContext } from 'react';
import { Navigate } from 'react-router';

/**
 * What a page drawn on the server (`entry-server.tsx`) tells the server besides its markup. In
 * the browser there is no drawing: the components below do what the app does.
 */
export interface Drawing {
  /** The page sends the visitor elsewhere: the server answers with a redirect. */
  redirectTo: string | null;
  /** The page is drawn in a state the app must carry on at once (a reading still being written). */
  startAtOnce: boolean;
}

export const DrawingContext = createContext<Drawing | null>(null);

/** `<Navigate replace>`; drawn on the server, the answer is a redirect there instead. */
export function Redirect({ to }: { to: string }) {
  const drawing = useContext(DrawingContext);
  if (!drawing) return <Navigate to={to} replace />;
  drawing.redirectTo ??= to;
  return null;
}

/** Drawn on the server while `needed`: the browser starts the app as soon as the page arrives. */
export function useStartAtOnce(needed: boolean) {
  const drawing = useContext(DrawingContext);
  if (drawing && needed) drawing.startAtOnce = true;
}
