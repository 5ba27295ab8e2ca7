/**
 * The web app's files as the API serves them: the build's compressed copies chosen by
 * Accept-Encoding, their caching headers, 404s for missing hashed files and unknown pages, each
 * page's hints, and robots.txt. The server serves a small build of the test's own (`precompress`
 * writes its copies, and `routeTable` reads the real route table, as the real build does; the
 * manifest names the real pages' modules with chunks of the test's own).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress, precompressPlugin } from '../../../web/precompress.ts';
import { ROUTE_TABLE_FILE, routeTable } from '../../../web/routeTable.ts';
import { negotiateEncoding } from '../src/http/webApp.ts';
import { startTestServer, type TestServer } from './support.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with exactly the headers given (fetch would add Accept-Encoding and decompress). */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const APP_JS = `export const stars = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `star ${i}`))};\n`;
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Astra</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}<script type="module" src="/assets/app-Ab12Cd34.js"></script></body></html>\n`;
const TINY_JS = 'export const a = 1;\n';
const WEB_ROOT = join(import.meta.dirname, '../../../web');

/** Vite's manifest of a build: the entry, three pages and the chunks they share. */
const MANIFEST = {
  'index.html': { file: 'assets/app-Ab12Cd34.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-Rr00Rr00.js' },
  '_card.js': { file: 'assets/card-Cc00Cc00.js', imports: ['_react.js'] },
  'src/features/dashboard/DashboardPage.tsx': {
    file: 'assets/DashboardPage-Dd00Dd00.js',
    isDynamicEntry: true,
    imports: ['_react.js', '_card.js'],
  },
  'src/features/library/LibraryPage.tsx': {
    file: 'assets/LibraryPage-Ll00Ll00.js',
    isDynamicEntry: true,
    imports: ['_card.js'],
  },
  'src/features/readings/natalChart/NatalChartResultPage.tsx': {
    file: 'assets/NatalChartResultPage-Nn00Nn00.js',
    isDynamicEntry: true,
  },
  'src/layout/NotFoundPage.tsx': { file: 'assets/NotFoundPage-Xx11Xx11.js', isDynamicEntry: true },
};
const SESSION = { cookie: 'astra.sid=any-session' };

/** The `<link>` elements of a page's HTML: `rel href` each. */
const linksOf = (html: string) =>
  [...html.matchAll(/<link rel="([^"]+)"[^>]* href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
describe('the web app’s files', () => {
  let dist: string;
  let server: TestServer;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'astra-web-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), INDEX_HTML);
    await writeFile(join(dist, 'assets', 'app-Ab12Cd34.js'), APP_JS);
    await writeFile(join(dist, 'assets', 'tiny-Zz99Yy88.js'), TINY_JS);
    await writeFile(join(dist, 'assets', 'photo-Qq11Ww22.png'), Buffer.alloc(4096, 7));
    await writeFile(join(dist, '.build-stamp'), 'stamp\n');
    await mkdir(join(dist, '.vite'));
    await writeFile(join(dist, '.vite/manifest.json'), JSON.stringify(MANIFEST));
    await writeFile(join(dist, ROUTE_TABLE_FILE), JSON.stringify(routeTable(WEB_ROOT)));
    await precompress(dist);
    server = await startTestServer({}, 'pglite', { webDist: dist });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies of text files of 1 KB or more, and of nothing else', async () => {
    const app = join(dist, 'assets', 'app-Ab12Cd34.js');
    expect(brotliDecompressSync(await readFile(`${app}.br`)).toString()).toBe(APP_JS);
    expect(gunzipSync(await readFile(`${app}.gz`)).toString()).toBe(APP_JS);
    await expect(readFile(join(dist, 'index.html.br'))).resolves.toBeDefined();
    await expect(readFile(join(dist, 'assets', 'tiny-Zz99Yy88.js.br'))).rejects.toThrow();
    await expect(readFile(join(dist, 'assets', 'photo-Qq11Ww22.png.gz'))).rejects.toThrow();
  });

  it('answers brotli where accepted, with its type, length, coding and Vary', async () => {
    const res = await get(server.url, '/assets/app-Ab12Cd34.js', {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(APP_JS.length);
    expect(brotliDecompressSync(res.body).toString()).toBe(APP_JS);
  });

  it('answers gzip where brotli is not accepted or refused with q=0', async () => {
    for (const header of ['gzip', 'br;q=0, gzip', 'x-gzip', 'gzip;q=0.5, br;q=0']) {
      const res = await get(server.url, '/assets/app-Ab12Cd34.js', { 'accept-encoding': header });
      expect(res.headers['content-encoding'], header).toBe('gzip');
      expect(gunzipSync(res.body).toString()).toBe(APP_JS);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    }
  });

  it('answers the file itself without Accept-Encoding, or when both codings are refused', async () => {
    const requests: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': '*;q=0, identity' },
    ];
    for (const headers of requests) {
      const res = await get(server.url, '/assets/app-Ab12Cd34.js', headers);
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(res.body.toString()).toBe(APP_JS);
      expect(Number(res.headers['content-length'])).toBe(APP_JS.length);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    }
  });

  it('caches hashed assets for a year, immutable; files without copies have no coding', async () => {
    const app = await get(server.url, '/assets/app-Ab12Cd34.js', { 'accept-encoding': 'br' });
    expect(app.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const tiny = await get(server.url, '/assets/tiny-Zz99Yy88.js', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe(TINY_JS);
    expect(tiny.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const photo = await get(server.url, '/assets/photo-Qq11Ww22.png', { 'accept-encoding': 'br' });
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404 for a missing asset, never the app’s HTML', async () => {
    const res = await get(server.url, '/assets/gone-Xx00Xx00.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body.toString()).not.toContain('<html');
  });

  it('serves index.html for every page, revalidated each time (no-cache, ETag, 304)', async () => {
    for (const path of ['/', '/natalbirthchart_result/abc', '/index.html', '/library']) {
      const res = await get(server.url, path, { 'accept-encoding': 'gzip, br' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      const html = brotliDecompressSync(res.body).toString();
      // The page's hints go into <head>; the rest is the build's file.
      expect(html.replace(/<link [^>]*>/g, '')).toBe(INDEX_HTML);
    }
    const first = await get(server.url, '/', { 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    const again = await get(server.url, '/', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another representation has another ETag: a cached gzip copy never answers for brotli.
    const brotli = await get(server.url, '/', { 'accept-encoding': 'br' });
    expect(brotli.headers.etag).not.toBe(etag);
  });

  it('answers 200 for the pages of the route table and 404 for any other, with the app', async () => {
    const pages = [
      '/',
      '/pricing',
      '/app',
      '/app/',
      '/APP',
      '/library',
      '/natalbirthchart_result/abc',
      '/checkout/local/cs_1',
      '/dev/mail',
    ];
    for (const path of pages) {
      const res = await get(server.url, path, SESSION);
      expect(res.status, path).toBe(200);
    }
    for (const path of ['/nowhere', '/app/nowhere', '/natalbirthchart_result', '/library/x/y']) {
      const res = await get(server.url, path, SESSION);
      expect(res.status, path).toBe(404);
      expect(res.headers['cache-control']).toBe('no-cache');
      const html = res.body.toString();
      expect(html).toContain('<div id="root"></div>');
      expect(linksOf(html)).toContain('modulepreload /assets/NotFoundPage-Xx11Xx11.js');
    }
  });

  it('names a signed-in page’s chunks and first requests in its HTML', async () => {
    const app = linksOf((await get(server.url, '/app', SESSION)).body.toString());
    expect(app).toEqual([
      'preload /api/session',
      'preload /api/site',
      'preload /api/apps',
      'modulepreload /assets/DashboardPage-Dd00Dd00.js',
      'modulepreload /assets/card-Cc00Cc00.js',
    ]);
    const html = (await get(server.url, '/app', SESSION)).body.toString();
    // As RTK Query's fetch() asks (mode cors, credentials same-origin), or it is fetched twice.
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/apps">');

    const library = linksOf((await get(server.url, '/library', SESSION)).body.toString());
    expect(library).toContain('preload /api/library?page=1');
    expect(library).toContain('modulepreload /assets/LibraryPage-Ll00Ll00.js');

    const id = '3f1c2a9e-0000-4000-8000-00000000abcd';
    const result = linksOf(
      (await get(server.url, `/natalbirthchart_result/${id}`, SESSION)).body.toString(),
    );
    expect(result).toEqual([
      'preload /api/session',
      'preload /api/site',
      `preload /api/readings/${id}`,
      'modulepreload /assets/NatalChartResultPage-Nn00Nn00.js',
    ]);
    // An id is passed on encoded, as the page's query encodes it.
    const odd = linksOf(
      (await get(server.url, '/natalbirthchart_result/a%22b%3Cc', SESSION)).body.toString(),
    );
    expect(odd).toContain('preload /api/readings/a%22b%3Cc');
  });

  it('hints only the session and the site for a signed-in page asked without a session', async () => {
    const res = await get(server.url, '/app');
    expect(res.status).toBe(200);
    expect(linksOf(res.body.toString())).toEqual(['preload /api/session', 'preload /api/site']);
  });

  it('serves the files of a build made while it runs', async () => {
    const later = join(dist, 'assets', 'later-Mm55Nn66.js');
    await writeFile(later, APP_JS);
    await precompress(dist);
    const res = await get(server.url, '/assets/later-Mm55Nn66.js', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(APP_JS);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await get(
      server.url,
      '/assets/app-Ab12Cd34.js',
      { 'accept-encoding': 'br' },
      'HEAD',
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(res.body.length).toBe(0);
  });

  it('does not serve the build’s stamp', async () => {
    const res = await get(server.url, '/.build-stamp');
    expect(res.body.toString()).not.toContain('stamp');
  });

  it('answers robots.txt: every page allowed but development’s, the API not', async () => {
    const res = await get(server.url, '/robots.txt', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body.toString();
    expect(text).toMatch(/^User-agent: \*$/m);
    for (const path of ['/api/', '/dev/', '/checkout/']) {
      expect(text).toContain(`\nDisallow: ${path}\n`);
    }
    const disallowed = [...text.matchAll(/^Disallow: (\S+)$/gm)].map((m) => m[1]!);
    const development = ['/dev/mail', '/checkout/local/:sessionId'];
    const pages = routeTable(WEB_ROOT)
      .routes.map((r) => r.path)
      .filter((path) => path !== '*' && !development.includes(path));
    expect(pages).toContain('/app');
    for (const page of pages) {
      expect(
        disallowed.filter((rule) => page.startsWith(rule)),
        page,
      ).toEqual([]);
    }
    expect(text).not.toMatch(/Sitemap:/i);
    expect(text).not.toContain('<');
  });
});

describe('precompressPlugin', () => {
  it('compresses an absolute --outDir where it is, not under the root', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'astra-web-out-'));
    try {
      await writeFile(join(outDir, 'app.js'), APP_JS);
      const plugin = precompressPlugin() as unknown as {
        configResolved(config: { root: string; build: { outDir: string } }): void;
        closeBundle(): Promise<void>;
      };
      plugin.configResolved({ root: WEB_ROOT, build: { outDir } });
      await plugin.closeBundle();
      expect(gunzipSync(await readFile(join(outDir, 'app.js.gz'))).toString()).toBe(APP_JS);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

describe('negotiateEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['br;q=0.4, gzip;q=0.8', 'gzip'],
    ['BR;Q=1, gzip;q=1', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*;q=0', 'identity'],
    ['gzip;q=0, br;q=0, identity;q=0', 'identity'],
    ['identity;q=1, gzip;q=0.5', 'identity'],
    ['br;q=nonsense, gzip', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header, both)).toBe(expected);
  });

  it('offers only the copies a file has', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br', [])).toBe('identity');
  });
});
