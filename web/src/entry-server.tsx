import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/AppProviders';
import { type ApiOrigin, api } from './app/api';
import { type Drawing, DrawingContext } from './app/drawing';
import { isDrawnPage } from './app/drawnPages';
import { drawnStateElement } from './app/drawnState';
import { routes } from './app/router';
import { makeStore } from './app/store';
import { visitorTimeZone } from './app/timeZone';

/** The page sends the visitor elsewhere (`<Redirect>`): the server answers with a redirect. */
export interface Redirection {
  redirect: string;
}

export interface DrawnPage {
  /** For `<head>`: the page's `<title>` and its styles (emotion's `<style>` elements). */
  head: string;
  /** The markup of `<div id="root">`. */
  markup: string;
  /** After the root: the answers the page was drawn with, for the browser's store (`drawnState.ts`). */
  state: string;
}

/** Renders again while the page still starts queries (a query that waits on another's answer). */
const MAX_PASSES = 4;

/**
 * A page of the app drawn on the server for one visitor (see `services/api/src/http/drawnPages.ts`):
 * rendered, its queries (started as it renders) answered by the API at `origin` with the visitor's
 * cookie, rendered again with their answers; or where the page sends the visitor instead. Null
 * for an address the server does not draw (`drawnPages.ts`), an error page, or a page whose
 * queries never settle: the browser draws those.
 */
export async function drawPage(
  url: string,
  target: ApiOrigin,
): Promise<DrawnPage | Redirection | null> {
  if (!isDrawnPage(new URL(url, target.origin).pathname)) return null;
  const handler = createStaticHandler(routes);
  // Loads the address's lazy route modules, as the client does before hydrating (`router.tsx`).
  const answer = await handler.query(new Request(new URL(url, target.origin)));
  if (answer instanceof Response || answer.statusCode !== 200) return null;
  const context = answer;
  const store = makeStore(target);
  const timeZone = visitorTimeZone(target.cookie);
  try {
    return await settle();
  } finally {
    // Ends what the queries left running on the server: polls, a reading's stream.
    store.dispatch(api.util.resetApiState());
  }

  async function settle(): Promise<DrawnPage | Redirection | null> {
    // Every part of the page, lazily loaded ones too: a prerender waits for them all.
    const render = async (drawing: Drawing) => {
      let failure: unknown;
      const { prelude } = await prerenderToNodeStream(
        <StrictMode>
          <DrawingContext value={drawing}>
            <AppProviders store={store} drawnIn={timeZone}>
              <StaticRouterProvider
                router={createStaticRouter(handler.dataRoutes, context)}
                context={context}
                hydrate={false}
              />
            </AppProviders>
          </DrawingContext>
        </StrictMode>,
        // Each part in its place, never sent apart to be moved in by an inline script (the CSP
        // refuses those).
        {
          progressiveChunkSize: Number.POSITIVE_INFINITY,
          // A part that fails would be drawn by the browser, with an error in its console.
          onError: (error) => {
            failure ??= error;
          },
        },
      );
      if (failure) throw failure;
      let html = '';
      for await (const chunk of prelude) html += chunk;
      return html;
    };
    const queries = () => store.getState()[api.reducerPath].queries;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const before = queries();
      const drawing: Drawing = { redirectTo: null, startAtOnce: false };
      let markup = await render(drawing);
      await Promise.all(store.dispatch(api.util.getRunningQueriesThunk()));
      // Drawn from the answers it now has: none came or changed while it rendered (a query
      // that refetches as it mounts, `refetchOnMountOrArgChange`, keeps its answer's data).
      const after = queries();
      const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
      const unchanged = [...keys].every(
        (key) =>
          before[key]?.data === after[key]?.data &&
          JSON.stringify(before[key]?.error) === JSON.stringify(after[key]?.error),
      );
      if (!unchanged) continue;
      if (drawing.redirectTo) return { redirect: drawing.redirectTo };
      // React hoists a page's <title> into <head> in the browser; here the caller puts it
      // there. The styles too, where the browser reads them once, before the page (each
      // `<style>` in the page would have it work out the styles again as it reads on).
      let title = '<title>Astra</title>';
      const styles: string[] = [];
      markup = markup
        .replace(/<title>[^<]*<\/title>/, (found) => {
          title = found;
          return '';
        })
        .replace(/<style data-emotion="[^"]*">[^<]*<\/style>/g, (found) => {
          styles.push(found);
          return '';
        });
      if (/<script/i.test(markup)) throw new Error(`Drawing ${url}: a script the CSP would refuse`);
      const answers = { [api.reducerPath]: store.getState()[api.reducerPath] };
      const state = drawnStateElement(answers, drawing.startAtOnce, timeZone);
      return { head: title + styles.join(''), markup, state };
    }
    return null;
  }
}
