/// <reference lib="webworker" />
/**
 * Halyard's service worker: keeps the app shell (the hashed bundle, icons and
 * manifest, listed at build time by vite-plugin-pwa) so the installed app opens
 * without a network, and each screen's last page for offline reopening. API
 * answers are never cached: balances, orders and prices always come from the
 * server, or not at all.
 */
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { SKIP_WAITING } from './messages.ts';

declare const self: ServiceWorkerGlobalScope;

const PAGES_CACHE = 'halyard-pages';
/** Pages kept for offline reopening: the screens a user visits most, not every record URL ever opened. */
const PAGES_KEPT = 30;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * Screens: the network first, because the server writes each screen's first
 * answers into its page; offline, the copy kept from the last visit, else home's
 * (the router shows the asked screen either way).
 */
registerRoute(
  new NavigationRoute(
    new NetworkFirst({
      cacheName: PAGES_CACHE,
      plugins: [
        new ExpirationPlugin({ maxEntries: PAGES_KEPT }),
        {
          handlerDidError: async () =>
            (await caches.open(PAGES_CACHE).then((cache) => cache.match('/'))) ?? Response.error(),
        },
      ],
    }),
    // Server pages that are not the app: the API docs, uploads and images.
    { denylist: [/^\/(docs|uploads|assets|admin|dev)(\/|$)/] },
  ),
);

// The app asks a waiting new version to take over when the user accepts the update.
self.addEventListener('message', (event) => {
  if (event.data?.type === SKIP_WAITING) void self.skipWaiting();
});
