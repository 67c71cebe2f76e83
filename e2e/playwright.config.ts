import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (no browser downloads) against the built
 * web app served by a real server (see global-setup.ts). Run after
 * `npm run build -w @halyard/web`.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  // Two files at a time: each spec signs up its own users, so they share the
  // server without sharing state; the tests inside one file run in order.
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
