import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Request } from 'express';
import type { Logger } from '../observability/logger.ts';

/**
 * What the web app's server entry (`web/src/entry-server.tsx`) answers for a page it draws:
 * HTML for `<head>`, for `<div id="root">`, and to follow the root (the drawn answers).
 */
interface DrawnPage {
  head: string;
  markup: string;
  state: string;
}

interface ServerEntry {
  drawPage(
    url: string,
    target: { origin: string; cookie?: string },
  ): Promise<DrawnPage | { redirect: string } | null>;
}

/** A page drawn for a visitor: its HTML, or where the page sends them instead. */
export type DrawnAnswer = { html: string } | { redirect: string };

/**
 * Pages drawn on the server for each visitor: the web app's server entry (`web/dist-ssr`, built
 * beside `web/dist`) renders the page with the answers this API gives that visitor (asked over
 * loopback with the visitor's cookie, so every rule of the API holds), and the page's HTML arrives
 * drawn, with those answers for the app to start from. Which pages are drawn is the web app's
 * choice (`web/src/app/drawnPages.ts`); for any other, or if drawing fails, null: the browser
 * draws the page.
 */
export function pageDrawer(webDist: string, logger: Logger) {
  const entryFile = join(webDist, '..', 'dist-ssr', 'entry-server.js');
  let entry: { built: number; module: Promise<ServerEntry> } | null = null;
  return async function draw(req: Request, template: string): Promise<DrawnAnswer | null> {
    // Loaded again after a build made while the server runs: the page must be drawn by the
    // same build as the scripts that take it over.
    const built = statSync(entryFile, { throwIfNoEntry: false })?.mtimeMs;
    if (built === undefined) return null;
    if (entry?.built !== built) {
      const url = `${pathToFileURL(entryFile).href}?build=${built}`;
      entry = { built, module: import(url) as Promise<ServerEntry> };
    }
    const { localAddress = '127.0.0.1', localPort } = req.socket;
    const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
    let page: Awaited<ReturnType<ServerEntry['drawPage']>>;
    try {
      page = await (await entry.module).drawPage(req.originalUrl, {
        origin: `http://${host}:${localPort}`,
        cookie: req.get('cookie'),
      });
    } catch (error) {
      logger.warn({ err: error, path: req.path }, 'Drawing the page failed; the browser draws it');
      return null;
    }
    if (!page) return null;
    if ('redirect' in page) return page;
    return {
      html: template
        .replace('<title>Astra</title>', page.head)
        .replace('<div id="root"></div>', `<div id="root">${page.markup}</div>${page.state}`),
    };
  };
}
