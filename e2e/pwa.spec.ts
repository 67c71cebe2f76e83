import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '@halyard/protocol';
import { expect } from '@playwright/test';
import { freePort, waitUntilUp } from './global-setup.ts';
import { base, test } from './support.ts';

/** Spec §2 /downloadApp and §8 "app update": the web app installs as an app and offers updates. */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the app is installable: its manifest is linked and served, and its service worker takes control', async ({
  page,
  context,
  request,
}) => {
  await page.goto(`${base()}/setting`);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await request.get(new URL(href ?? '', base()).href)).json();
  expect(manifest).toMatchObject({ name: 'Halyard', display: 'standalone', start_url: '/', scope: '/' });
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons as { src: string }[]) {
    const image = await request.get(new URL(icon.src, base()).href);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
  }
  await expect(page.locator('meta[name="apple-mobile-web-app-status-bar-style"]')).toHaveCount(1);

  const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  expect(worker).toBe(`${base()}/sw.js`);
  // The next load goes through the worker, which keeps the app shell.
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${base()}/sw.js`);
  const shell = await page.evaluate(async () =>
    (await caches.keys()).some((name) => name.includes('precache')),
  );
  expect(shell).toBe(true);

  // Offline, the installed app still opens: the page and bundle come from the worker's caches.
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.locator('.adm-nav-bar-title')).toHaveText('Settings');
  } finally {
    await context.setOffline(false);
  }
});

test('/downloadApp explains how to install and links the native apps only when there are some', async ({
  page,
  request,
}) => {
  const admin = { 'admin-token': process.env.E2E_ADMIN_TOKEN ?? '' };
  // What is published now, release notes in every language, to put back for the specs after this one.
  const published = async () => {
    const notes: Record<string, string> = {};
    let current = { code: '', androidUrl: '', iosUrl: '' };
    for (const lang of LOCALES) {
      const { data } = await (await request.get(`${base()}/home/versions`, { headers: { lang } })).json();
      current = data;
      if (data.notes) notes[lang] = data.notes;
    }
    return { code: current.code, androidUrl: current.androidUrl, iosUrl: current.iosUrl, notes };
  };
  const publish = async (versions: object) => {
    const answer = await request.put(`${base()}/admin/content/versions`, { headers: admin, data: versions });
    expect((await answer.json()).code).toBe(200);
  };
  const before = await published();
  await page.goto(`${base()}/setting`);
  await page.getByTestId('download-app').click();
  await expect(page).toHaveURL(/\/downloadApp$/);
  // Headless Chromium makes no install offer: the browser-menu steps are shown.
  await expect(page.getByTestId('download-steps')).toContainText('Install app');
  await expect(page.getByTestId('native-apps')).toHaveCount(0);
  try {
    await publish({ ...before, androidUrl: 'https://apps.example/halyard.apk' });
    await page.reload();
    await expect(page.getByRole('link', { name: 'Android app' })).toHaveAttribute(
      'href',
      'https://apps.example/halyard.apk',
    );
    await expect(page.getByRole('link', { name: 'iOS app' })).toHaveCount(0);
  } finally {
    await publish(before);
  }
});

/**
 * A server of its own on `port` and `dataDir`, reporting `release` as the one it
 * runs: the built one (`buildServer`), which starts in a second or two where
 * tsx would first compile the sources each time.
 */
async function startServer(port: number, dataDir: string, release?: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HALYARD_DATA_DIR: dataDir,
      HALYARD_DEMO: 'true',
      // No local chain: the shared test server runs one on its fixed port.
      WALLET_LOCAL_CHAIN: 'false',
      LOG_LEVEL: 'warn',
      ...(release ? { HALYARD_RELEASE: release } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitUntilUp(`http://localhost:${port}/home/versions`, server);
  return server;
}

/** The server as a deployment runs it (`npm run build -w @halyard/server`), from the current sources. */
function buildServer(): void {
  execFileSync(process.execPath, ['apps/server/scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}

test('offers the update when the server it talks to starts running a newer release', async ({ page }) => {
  test.setTimeout(120_000);
  buildServer();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-e2e-update-'));
  const url = `http://localhost:${port}`;
  let server = await startServer(port, dataDir);
  try {
    // Settings: a screen without live data, so the restart below costs no socket errors.
    await page.goto(`${url}/setting`);
    await page.evaluate(async () => navigator.serviceWorker.ready);
    const prompt = page.getByTestId('update-prompt');
    await expect(prompt).toHaveCount(0);

    // The operator upgrades: the same data, a newer release.
    await stopServer(server);
    server = await startServer(port, dataDir, '99.0.0');
    // The user comes back to the app, which asks the server again.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect(prompt).toContainText('version 99.0.0 is ready');
    await expect(page.getByText('A new version of Halyard is available')).toBeVisible();
    await page.getByRole('button', { name: 'Later' }).click();
    await expect(prompt).toBeHidden();
    await expect(page.getByText('99.0.0 available')).toBeVisible(); // the settings row still says so

    // Offered again on the next start; accepting reloads onto the server's build.
    await page.reload();
    await expect(prompt).toContainText('version 99.0.0 is ready');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Update now' }).click()]);
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
