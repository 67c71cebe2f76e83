import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const SERVER = 'http://localhost:8080';

/**
 * The operator console, served by the server under /admin/ (apps/server/src/http/admin-app.ts):
 * index.html at /admin/ and the hashed bundle under /admin/assets/. The console's screens are
 * hash routes (/admin/#/users), so no screen path can collide with an /admin/... API route.
 * The dev server forwards the API to a running server so the console stays same-origin.
 */
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  server: {
    proxy: {
      '^/admin/(?!assets/|$|src/|@|node_modules/).*': { target: SERVER, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2500,
  },
});
