import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 60_000;
/** The operator token of the started server: tests approve KYC with it. */
const ADMIN_TOKEN = 'e2e-admin-token';

export function freePort(): Promise<number> {
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

export async function waitUntilUp(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not answer ${url} within ${START_TIMEOUT_MS} ms`);
}

/**
 * Starts the real server (demo data, a fresh temporary data directory, a free
 * port) serving the already-built web app; builds nothing. The tests read
 * the address from E2E_BASE_URL.
 */
export default async function globalSetup() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-e2e-'));
  // localhost, not 127.0.0.1: the wallet's sign-in message names this host
  // and the server checks it against its public URL.
  const baseUrl = `http://localhost:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HALYARD_DATA_DIR: dataDir,
      HALYARD_DEMO: 'true',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      // The specs' newcomers all connect from loopback: as behind a proxy, each
      // says its own address (support.ts newcomerHeaders), so the per-address
      // limits (5 codes a minute) apply to each one as to a real visitor.
      TRUSTED_PROXIES: '127.0.0.1,::1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitUntilUp(`${baseUrl}/home/versions`, server);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_ADMIN_TOKEN = ADMIN_TOKEN;
  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
