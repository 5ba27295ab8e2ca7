import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './precompress.ts';
import { prerenderPlugin } from './prerender.ts';
import { routeTablePlugin } from './routeTable.ts';

/** The browser's build (Vite's default `outDir`), where the prerendered pages go too. */
const clientDir = join(import.meta.dirname, 'dist');

/**
 * Two builds (`npm run build`): the browser's app into `dist/`, then `--ssr` the server entry
 * into `dist-ssr/`, which draws the public pages into `dist/prerendered/` (`prerender.ts`).
 * The browser's build also writes Vite's manifest and the route table (`dist/.vite/`, not
 * served): the server reads each page's chunks and first requests from them.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild
    ? [react(), prerenderPlugin(clientDir)]
    : [react(), precompressPlugin(), routeTablePlugin()],
  build: isSsrBuild ? { outDir: 'dist-ssr', copyPublicDir: false } : { manifest: true },
  server: { proxy: { '/api': 'http://localhost:3000' } },
}));
