import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { serverMessagesPlugin } from './src/i18n/vite-plugin.ts';

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

/**
 * React, the base UI, the app's core and the wallet stack apart: a few long-lived chunks
 * instead of many tiny shared ones (a phone on a slow link pays a round trip per file, and
 * opens only six HTTP/1.1 connections), and viem out of the home page's chunks, loaded only
 * by what uses the wallet. Vite's preload helper rides with React, or it lands in whichever
 * chunk first shares it (viem) and drags that chunk into the entry. A group also takes the
 * dependencies of what it matches; the higher priority keeps React's and the base's modules
 * in their own chunks when the core reaches them.
 */
const CHUNK_GROUPS = [
  {
    name: 'react',
    priority: 3,
    test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|vite[\\/]preload-helper/,
  },
  {
    // What the layout and home use on every visit: data, i18n, state and the base of antd-mobile.
    name: 'base',
    priority: 2,
    test: /node_modules[\\/](@tanstack|i18next|react-i18next|zustand|ahooks|@use-gesture|@react-spring|lodash|classnames|rc-util|antd-mobile[\\/]es[\\/](utils|global|components[\\/](popup|mask|button|dot-loading|image|dialog|center-popup|toast|spin-loading|tab-bar|badge|safe-area|auto-center|config-provider)[\\/]))/,
  },
  { name: 'viem', test: /node_modules[\\/](viem|ox|abitype|@noble|@scure|@adraffy)[\\/]/ },
  {
    // The app's own modules that home and the lazy screens share (the workspace packages,
    // English texts, live data, formats): one file instead of five small ones. Nothing here
    // may import the antd-mobile barrel (http.ts does, through the toasts), or every component
    // would follow it in.
    name: 'core',
    test: /packages[\\/](money|rules|protocol)[\\/]src[\\/]|apps[\\/]web[\\/]src[\\/](shared[\\/](format|storage|ws|live)\.ts|i18n[\\/](index\.ts|locale\.ts|en\.json))|server-messages[\\/]en$|antd-mobile[\\/]es[\\/]locales[\\/](base|en-US)\.js/,
    priority: 1,
  },
];

/**
 * The installable app (spec §2 /downloadApp): the web manifest with its icons
 * (public/icons, drawn from icon.svg), and the service worker of src/sw/ given
 * the list of files to keep (the bundle and icons, never API answers). The app
 * registers the worker itself (src/features/pwa/installable.ts).
 */
const installableApp = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'src/sw',
  filename: 'sw.ts',
  injectRegister: false,
  manifest: {
    id: '/',
    name: 'Halyard',
    short_name: 'Halyard',
    description: 'Spot, futures and cycle trading of crypto assets',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#0b0e11',
    theme_color: '#0b0e11',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    globPatterns: ['app/**/*.{js,css}', 'icons/*.png'],
    rollupFormat: 'iife',
  },
});

export default defineConfig({
  plugins: [react(), serverMessagesPlugin(), installableApp],
  server: {
    proxy: {
      ...Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: SERVER, changeOrigin: true }])),
      '/ws': { target: SERVER, ws: true, changeOrigin: true },
    },
  },
  // The server owns /assets (coin icons), so the bundle lives under /app.
  build: {
    outDir: 'dist',
    assetsDir: 'app',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
  },
});
