import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../web/e2e/chromium.ts';
import { writeSection } from './report.ts';

const dist = join(import.meta.dirname, '../web/dist');
const LIMIT_KB = 250;

/** Serves the built web app the way the API does: files, and index.html for every other path. */
function serveDist() {
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.html': 'text/html',
    '.svg': 'image/svg+xml',
  };
  const server = createServer((req, res) => {
    const path = normalize(
      decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname),
    ).replace(/^(\.\.[/\\])+/, '');
    let file = join(dist, path);
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      file = join(dist, 'index.html');
      body = readFileSync(file);
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  });
  return new Promise<{ url: string; close(): void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
        close: () => server.close(),
      });
    }),
  );
}

/** The JavaScript a first visit to the landing page downloads, gzip-compressed, from a fresh build. */
export async function webBundleBenchmark() {
  execFileSync('npm', ['run', 'build', '--workspace', 'web'], {
    stdio: 'ignore',
    cwd: join(import.meta.dirname, '..'),
  });
  const server = await serveDist();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(server.url, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Speak to the stars.' }).waitFor();
    const sizes = [...scripts].map((path) => {
      const raw = readFileSync(join(dist, path));
      return { path, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
    });
    const gzipKb = sizes.reduce((sum, s) => sum + s.gzip, 0) / 1024;
    const rawKb = sizes.reduce((sum, s) => sum + s.raw, 0) / 1024;
    const largest = sizes.sort((a, b) => b.gzip - a.gzip).slice(0, 4);
    await writeSection(
      'web-bundle',
      "The app's JavaScript on the landing page (when it starts)",
      [
        {
          what: `JavaScript a first visit to \`/\` downloads (${sizes.length} files), gzip -9`,
          measured: `${gzipKb.toFixed(1)} KB (${rawKb.toFixed(0)} KB uncompressed)`,
          target: `≤ ${LIMIT_KB} KB compressed`,
          met: gzipKb <= LIMIT_KB,
        },
        ...largest.map((s) => ({
          what: `largest: \`${s.path}\``,
          measured: `${(s.gzip / 1024).toFixed(1)} KB`,
          target: '—',
          met: null,
        })),
      ],
      "A production build (`npm run build --workspace web`) served as static files and loaded in Chromium, so the app draws the page itself and starts at once: this is what the app downloads when it starts, which on a page the server draws happens on the visitor's first intent (until then that page loads only `boot.ts`, a few KB: see the Lighthouse section). Every script the page requested until the network was idle is counted, each gzip-compressed at level 9. The other pages are separate chunks loaded when visited.",
    );
  } finally {
    await browser.close();
    server.close();
  }
}
