import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What a deployment runs: `npm run build -w @halyard/server`, then plain
 * `node apps/server/dist/main.js` (no tsx). The bundle must start, run its
 * migrations on a fresh data directory, find the files it reads at run time
 * and load the packages it leaves in node_modules.
 */
const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'apps/server');
const run = promisify(execFile);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilUp(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the built server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the built server did not answer ${url}`);
}

describe('the production build', () => {
  let dataDir: string;
  let baseUrl: string;
  let server: ChildProcess;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    await run(process.execPath, ['scripts/build.mjs'], { cwd: serverDir });
    dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-built-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // Demo data without the in-process chain: nothing else to start, no fixed port to share.
    // The fresh data directory alone decides the storage, whatever the caller's own settings say.
    env = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && name !== 'SQLITE_FILE'),
      ),
      PORT: String(port),
      HOST: '127.0.0.1',
      HALYARD_DATA_DIR: dataDir,
      WALLET_LOCAL_CHAIN: 'false',
      LOG_LEVEL: 'warn',
    };
    // Started from elsewhere than the repository, as a service manager would.
    server = spawn(process.execPath, [path.join(serverDir, 'dist/main.js')], {
      cwd: dataDir,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUntilUp(`${baseUrl}/home/versions`, server);
  }, 30_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the API from a freshly migrated and seeded store', async () => {
    const versions = await (await fetch(`${baseUrl}/home/versions`, { headers: { lang: 'en' } })).json();
    expect(versions).toMatchObject({ code: 200, data: { demo: true } });
    const notices = await (await fetch(`${baseUrl}/home/articles`)).json();
    expect(notices.data.count).toBeGreaterThan(0);
  });

  it('serves the files it reads at run time: banner images and the API docs', async () => {
    const banners = await (await fetch(`${baseUrl}/home/banner?type=app`)).json();
    const image = await fetch(`${baseUrl}${banners.data[0].image}`);
    expect(image.status).toBe(200);
    expect(await image.text()).toContain('<svg');
    const docs = await fetch(`${baseUrl}/docs/json`);
    expect((await docs.json()).paths).toHaveProperty('/home/versions');
  });

  it('runs the built ledger audit against the same store', async () => {
    const { stdout } = await run(process.execPath, [path.join(serverDir, 'dist/audit-cli.js')], { env });
    expect(stdout).toContain('OK: every invariant holds');
  });

  it('stops cleanly on SIGTERM', async () => {
    server.kill('SIGTERM');
    const code = await new Promise((resolve) => server.once('exit', resolve));
    expect(code).toBe(0);
  });
});
