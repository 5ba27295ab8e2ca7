import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The web app's pages as its build describes them (`dist/.vite/routes.json`, read from the route
 * table by `web/routeTable.ts`, and Vite's `dist/.vite/manifest.json`): which addresses are
 * pages (others answer 404, with the app's not-found page), and what each page will ask for
 * first, so that its HTML can name it and the browser start it at once instead of in turn
 * (the main script, then the session, then the page's chunk, then the page's data):
 * - `<link rel="modulepreload">` for the app (`src/main.tsx`, which the page's script imports)
 *   and the page's chunk, with the chunks they import (those of the page's script are in
 *   `index.html` already);
 * - `<link rel="preload" as="fetch" crossorigin>` for its first API requests: `crossorigin`
 *   (credentials `same-origin`, mode `cors`) is what RTK Query's `fetch()` asks with, so the
 *   browser hands the preloaded answer to it instead of fetching again.
 * A signed-in page gets its hints only for a request carrying a session cookie: without one the
 * app sends the visitor to sign in, and hints it never used would be fetched for nothing.
 */

interface RouteEntry {
  path: string;
  module: string | null;
  signedIn: boolean;
  requests: string[];
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

interface Page {
  /** The route's pattern compiled; its groups are the address's parameters, by name. */
  pattern: RegExp;
  signedIn: boolean;
  /** `/assets/…` files to modulepreload. */
  chunks: string[];
  /** API requests, with `:name` for the address's parameters. */
  requests: string[];
}

export interface PageAnswer {
  /** 200 for a page of the app, 404 for any other address (the app draws its not-found page). */
  status: 200 | 404;
  /** The `<link>` elements to add to `<head>`. */
  hints: string;
}

export interface PageHints {
  forPath(path: string, hasSession: boolean): PageAnswer;
}

/**
 * react-router's matching, as the route table uses it: segments compared without regard to case,
 * `:name` one non-empty segment, a trailing slash allowed.
 */
function compile(path: string): RegExp {
  const source = path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith(':')
        ? `/(?<${segment.slice(1)}>[^/]+)`
        : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    )
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

/** A module's chunk and every chunk it imports statically, as `/assets/…` paths. */
function chunksOf(manifest: Record<string, ManifestChunk>, key: string, skip: Set<string>) {
  const files: string[] = [];
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || skip.has(chunk.file) || files.includes(`/${chunk.file}`)) return;
    files.push(`/${chunk.file}`);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(key);
  return files;
}

/** The app's module, which the page's script imports (`web/src/boot.ts`). */
const APP_MODULE = 'src/main.tsx';

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The build's pages, or null for a build without its route table (every address a page). */
export function readPageHints(webDist: string): PageHints | null {
  let table: { everyPage: string[]; routes: RouteEntry[] };
  let manifest: Record<string, ManifestChunk>;
  try {
    table = JSON.parse(readFileSync(join(webDist, '.vite/routes.json'), 'utf8'));
    manifest = JSON.parse(readFileSync(join(webDist, '.vite/manifest.json'), 'utf8'));
  } catch {
    return null;
  }
  // What the page's script (`boot.ts`) loads is named by index.html already; the app it starts
  // (`main.tsx`, imported when the page is not drawn by the server) is named for every page.
  const loaded = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry)
      for (const file of chunksOf(manifest, key, new Set())) loaded.add(file.slice(1));
  }
  const app = chunksOf(manifest, APP_MODULE, loaded);
  for (const file of app) loaded.add(file.slice(1));
  const page = (r: RouteEntry): Page => ({
    pattern: compile(r.path),
    signedIn: r.signedIn,
    chunks: r.module ? chunksOf(manifest, r.module, loaded) : [],
    requests: r.requests,
  });
  const pages = table.routes.filter((r) => r.path !== '*').map(page);
  const notFoundRoute = table.routes.find((r) => r.path === '*');
  const notFound = notFoundRoute ? page(notFoundRoute) : null;

  const links = (p: Page | null, params: Record<string, string>, everyPage: boolean) => {
    const fetches = [...(everyPage ? table.everyPage : []), ...(p?.requests ?? [])].map((url) =>
      url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? '')),
    );
    return [
      ...fetches.map(
        (url) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(url)}">`,
      ),
      ...[...app, ...(p?.chunks ?? [])].map(
        (file) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(file)}">`,
      ),
    ].join('');
  };

  return {
    forPath(path, hasSession) {
      for (const p of pages) {
        const match = p.pattern.exec(path);
        if (!match) continue;
        // Signed out on a signed-in page: the app sends the visitor to sign in at once.
        if (p.signedIn && !hasSession) return { status: 200, hints: links(null, {}, true) };
        const params: Record<string, string> = {};
        for (const [name, value] of Object.entries(match.groups ?? {})) {
          try {
            params[name] = decodeURIComponent(value);
          } catch {
            params[name] = value;
          }
        }
        return { status: 200, hints: links(p, params, true) };
      }
      return { status: 404, hints: links(notFound, {}, true) };
    },
  };
}
