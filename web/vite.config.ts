import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './precompress.ts';

export default defineConfig({
  plugins: [react(), precompressPlugin()],
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
