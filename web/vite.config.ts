import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './precompress.ts';
import { routeTablePlugin } from './routeTable.ts';

/**
 * Two builds (`npm run build`): the browser's app into `dist/`, then `--ssr` the server entry
 * into `dist-ssr/`, with which the API draws pages for each visit (`src/entry-server.tsx`).
 * The browser's build also writes Vite's manifest and the route table (`dist/.vite/`, not
 * served): the server reads each page's chunks and first requests from them.
 *
 * The server entry bundles its packages and is built for production, as the browser's app is:
 * left as imports, the API process would load every module of Chakra, Ark, Zag and
 * lucide-react whole, and React's development build under `npm start` (some 35 MB more heap).
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), precompressPlugin(), routeTablePlugin()],
  build: isSsrBuild ? { outDir: 'dist-ssr', copyPublicDir: false } : { manifest: true },
  ...(isSsrBuild && {
    ssr: { noExternal: true },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  }),
  server: { proxy: { '/api': 'http://localhost:3000' } },
}));
