import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './precompress.ts';
import { routeTablePlugin } from './routeTable.ts';

export default defineConfig({
  plugins: [react(), precompressPlugin(), routeTablePlugin()],
  // The manifest (dist/.vite/, not served) and the route table give the server each page's chunks.
  build: { manifest: true },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
