import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '../observability/logger.ts';
import { cookieFrom } from './cookies.ts';
import { pageDrawer } from './drawnPages.ts';
import { readPageHints } from './pageHints.ts';

/**
 * The built web app (`web/dist`), served with the compressed copies the build wrote beside each
 * text file (`app.js.br`, `app.js.gz`: see `web/precompress.ts`), never compressing at request
 * time:
 * - the representation is chosen by `Accept-Encoding` (q-values, `q=0` refusals, `*`): brotli,
 *   else gzip, else the file itself, with `Content-Encoding`, `Vary: Accept-Encoding` and the
 *   original file's `Content-Type`;
 * - `/assets/*` files carry a content hash in their names: cached for a year, `immutable`;
 *   every other file, and `index.html` for every page of the app, is revalidated each time
 *   (`no-cache`, with an ETag per representation, so a revalidation is a `304`);
 * - a page the web app draws on the server (`drawnPages.ts`: the public pages, and for a session
 *   the dashboard, the library and the saved readings) answers its HTML drawn for that visitor,
 *   `private` (it may hold their data), when its address has no query;
 * - every other address answers `index.html` with the page's hints (`appPage`): `200` for a
 *   page of the route table, `404` for any other (the app draws its not-found page);
 * - a missing `/assets/…` file is a 404: after a deploy, an old page asking for a chunk that is
 *   gone must fail as a script, never receive the HTML of the app.
 * The files are listed when the server starts, and again when a file the list lacks is there (a
 * build made while the server runs; its `index.html` CSP hashes still wait for the next start).
 */

/** The codings the build writes, in the server's order of preference, and their suffixes. */
export const PRECOMPRESSED = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

export type Coding = (typeof PRECOMPRESSED)[number]['coding'] | 'identity';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * The coding to answer with, given a request's `Accept-Encoding` and the codings a file has
 * (in the server's order of preference): the one with the highest q-value above 0, ties going to
 * the server's order; the file as it is when none is accepted, or when `identity` is named
 * with a higher q-value than any. RFC 9110 §12.5.3: `*` stands for every coding not named; a
 * request without the header gets the file as it is. A request that refuses identity too still
 * gets it (the RFC allows that instead of a 406).
 */
export function negotiateEncoding(
  acceptEncoding: string | undefined,
  available: readonly Coding[],
): Coding {
  if (!acceptEncoding?.trim()) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => /^q\s*=/i.test(p));
    const weight = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    weights.set(coding, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  const any = weights.get('*');
  let best: Coding = 'identity';
  let bestWeight = 0;
  for (const coding of available) {
    const weight = weights.get(coding) ?? any ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  // Identity only where nothing else is accepted, or where the client prefers it outright.
  const identity = weights.get('identity');
  return identity !== undefined && identity > bestWeight ? 'identity' : best;
}

interface WebFile {
  path: string;
  /** The compressed copies beside it, in the server's order of preference. */
  codings: Coding[];
}

/** Every file of the build by its URL path; dotfiles (the build's stamp) are not served. */
export function listWebFiles(webDist: string): Map<string, WebFile> {
  const paths = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) paths.add(path);
    }
  };
  walk(webDist);
  const files = new Map<string, WebFile>();
  for (const path of paths) {
    // A compressed copy is a representation of its original, not a file of its own.
    if (
      PRECOMPRESSED.some(
        ({ suffix }) => path.endsWith(suffix) && paths.has(path.slice(0, -suffix.length)),
      )
    )
      continue;
    const codings = PRECOMPRESSED.filter(({ suffix }) => paths.has(path + suffix)).map(
      ({ coding }) => coding,
    );
    files.set(`/${relative(webDist, path).split(sep).join('/')}`, { path, codings });
  }
  return files;
}

function sendWebFile(req: Request, res: Response, file: WebFile, cacheControl: string) {
  const coding = negotiateEncoding(req.get('accept-encoding'), file.codings);
  const suffix = PRECOMPRESSED.find((p) => p.coding === coding)?.suffix ?? '';
  res.type(extname(file.path));
  res.set('Cache-Control', cacheControl);
  if (file.codings.length > 0) res.vary('Accept-Encoding');
  if (suffix) res.set('Content-Encoding', coding);
  // `send` keeps the Content-Type set above and computes Content-Length, a weak ETag per
  // representation (size and time of the file sent) and the 304 of a revalidation.
  res.sendFile(file.path + suffix, { cacheControl: false, acceptRanges: !suffix });
}

/** Fast settings: the page's HTML is compressed as it is answered (its hints vary by address). */
const COMPRESS_PAGE = {
  br: (html: string) =>
    brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (html: string) => gzipSync(html, { level: 6 }),
};

/**
 * `index.html` for an address of the app, with its status and the hints of that page
 * (`pageHints.ts`): read again when the build changes it. Its text is a few KB, so it is
 * compressed per answer (about 0.1 ms), with an ETag of the bytes sent.
 */
function appPage(webDist: string, { sessionCookie, logger }: WebAppOptions) {
  const indexPath = join(webDist, 'index.html');
  const draw = pageDrawer(webDist, logger);
  let build: { modified: number; html: string; hints: ReturnType<typeof readPageHints> } | null =
    null;
  return async (req: Request, res: Response, next: NextFunction) => {
    // Missing only while a build rewrites the directory.
    const modified = statSync(indexPath, { throwIfNoEntry: false })?.mtimeMs;
    if (modified === undefined) return next();
    if (build?.modified !== modified)
      build = { modified, html: readFileSync(indexPath, 'utf8'), hints: readPageHints(webDist) };
    // Drawn without a query: an address with one (a sign-in's return, `/pricing?return=…`) is
    // drawn by the browser.
    const drawn = req.url.includes('?') ? null : await draw(req, build.html);
    const send = (status: number, html: string, cacheControl: string) => {
      const coding = negotiateEncoding(req.get('accept-encoding'), ['br', 'gzip']);
      res.status(status).type('html').set('Cache-Control', cacheControl).vary('Accept-Encoding');
      if (coding !== 'identity') res.set('Content-Encoding', coding);
      res.send(coding === 'identity' ? html : COMPRESS_PAGE[coding](html));
    };
    if (drawn && 'redirect' in drawn)
      return res.set('Cache-Control', DRAWN).redirect(drawn.redirect);
    if (drawn) return send(200, drawn.html, DRAWN);
    const page = build.hints?.forPath(req.path, cookieFrom(req, sessionCookie) !== undefined) ?? {
      status: 200,
      hints: '',
    };
    send(
      page.status,
      page.hints ? build.html.replace('</head>', `${page.hints}</head>`) : build.html,
      REVALIDATE,
    );
  };
}

/** A drawn page may hold the visitor's own data: kept by no shared cache, revalidated each time. */
const DRAWN = 'private, no-cache';

export interface WebAppOptions {
  /** The session cookie's name: a signed-in page is hinted only for a request that has one. */
  sessionCookie: string;
  /** Where a page that could not be drawn on the server is told of. */
  logger: Logger;
}

/** The web app's files, then `index.html` for every other page (the app routes in the browser). */
export function webAppRoutes(webDist: string, options: WebAppOptions) {
  let files = listWebFiles(webDist);
  const sendAppPage = appPage(webDist, options);
  // A build made while the server runs: its new files are listed when first asked for.
  const lookup = (path: string) => {
    const added =
      !files.has(path) &&
      !path.includes('..') &&
      statSync(join(webDist, path), { throwIfNoEntry: false })?.isFile();
    if (added) files = listWebFiles(webDist);
    return files.get(path);
  };
  // An application of its own: the API's turns ETags off (its answers are per user), and
  // `sendFile` takes that setting from the application answering.
  const web = express();
  web.disable('x-powered-by');
  web.set('etag', true);
  web.get('/{*path}', (req, res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = lookup(path);
    if (file) {
      const hashed = path.startsWith('/assets/');
      return sendWebFile(req, res, file, hashed ? IMMUTABLE : REVALIDATE);
    }
    if (path.startsWith('/assets/')) {
      return res.status(404).type('text').set('Cache-Control', REVALIDATE).send('Not found');
    }
    sendAppPage(req, res, next).catch(next);
  });
  return web;
}

/**
 * `/robots.txt`: crawlers may read every page of the app. The signed-in pages show a crawler
 * nothing but the way to sign in (it has no session), so keeping them out gains nothing and
 * costs them Lighthouse's `is-crawlable`. Kept out: what is not a page (the API, the metrics),
 * development's pages (`/dev/…`, the local checkout's `/checkout/…`). Rules match by prefix.
 * There is no sitemap, so no `Sitemap:` line.
 */
export const ROBOTS_TXT = `User-agent: *
Disallow: /api/
Disallow: /metrics
Disallow: /dev/
Disallow: /checkout/
`;
