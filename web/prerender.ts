import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { precompressFiles } from './precompress.ts';

/**
 * Where a page's HTML is written in the build: `prerendered/pricing/index.html` for `/pricing`,
 * `prerendered/index.html` for `/`; the API serves it at its path (`services/api/src/http/webApp.ts`).
 */
export const prerenderedFile = (path: string) => `prerendered${path.replace(/\/$/, '')}/index.html`;

/**
 * The build's public pages as HTML (`src/entry-server.tsx` lists them): `index.html` with the
 * page's markup in `<div id="root">`, its styles inline (emotion's `<style>` elements) and its
 * title in `<head>`. A phone draws the page from the HTML alone; the client then hydrates it
 * (`src/main.tsx`). Written to `dist/prerendered/`, compressed like the rest of the build.
 */
export async function prerender(serverEntry: string, clientDir: string): Promise<void> {
  const { render, PRERENDERED_PATHS } = (await import(
    pathToFileURL(serverEntry).href
  )) as typeof import('./src/entry-server.tsx');
  const template = await readFile(join(clientDir, 'index.html'), 'utf8');
  const written: string[] = [];
  for (const path of PRERENDERED_PATHS) {
    let markup = await render(path);
    // React hoists a page's <title> into <head> when it renders in the browser; here it is moved
    // there by hand, replacing the template's.
    let title = '<title>Astra</title>';
    markup = markup.replace(/<title>[^<]*<\/title>/, (found) => {
      title = found;
      return '';
    });
    const html = template
      .replace('<title>Astra</title>', title)
      .replace('<div id="root"></div>', `<div id="root">${markup}</div>`)
      // The page is drawn without its scripts: they wait behind whatever the drawing needs
      // (and are not taken for render-blocking, as scripts of high priority are).
      .replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"');
    if (html === template || /<script/i.test(markup)) {
      throw new Error(`Prerendering ${path}: no root to fill, or a script the CSP would refuse`);
    }
    const file = join(clientDir, prerenderedFile(path));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, html);
    written.push(file);
  }
  await precompressFiles(written);
}

/** The Vite plugin of the server build: prerenders once the server entry is written. */
export function prerenderPlugin(clientDir: string): Plugin {
  let serverEntry = '';
  return {
    name: 'astra-prerender',
    apply: 'build',
    configResolved(config) {
      serverEntry = resolve(config.root, config.build.outDir, 'entry-server.js');
    },
    async closeBundle() {
      await prerender(serverEntry, clientDir);
    },
  };
}
