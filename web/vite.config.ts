import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './precompress.ts';
import { prerenderPlugin } from './prerender.ts';

/** The browser's build (Vite's default `outDir`), where the prerendered pages go too. */
const clientDir = join(import.meta.dirname, 'dist');

/**
 * Two builds (`npm run build`): the browser's app into `dist/`, then `--ssr` the server entry
 * into `dist-ssr/`, which draws the public pages into `dist/prerendered/` (`prerender.ts`).
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), isSsrBuild ? prerenderPlugin(clientDir) : precompressPlugin()],
  build: isSsrBuild ? { outDir: 'dist-ssr', copyPublicDir: false } : {},
  server: { proxy: { '/api': 'http://localhost:3000' } },
}));
