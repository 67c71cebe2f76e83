import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const SERVER = 'http://localhost:8080';
/** Every server prefix the app calls; the dev server forwards them so the app stays same-origin. */
const API_PREFIXES = [
  '/trad',
  '/contract',
  '/cycle',
  '/account',
  '/flash',
  '/ieo',
  '/fiat',
  '/user',
  '/member',
  '/home',
  '/dev',
  '/uploads',
  '/assets',
  '/docs',
];

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      ...Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: SERVER, changeOrigin: true }])),
      '/ws': { target: SERVER, ws: true, changeOrigin: true },
    },
  },
  // The server owns /assets (coin icons), so the bundle lives under /app.
  build: { outDir: 'dist', assetsDir: 'app', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});
