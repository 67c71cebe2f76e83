import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitUntilUp } from '../global-setup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A spec's own demo server, up and answering. */
export interface OwnServer {
  url: string;
  process: ChildProcess;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `entry` (a file under e2e/servers) as a demo server of its own: a free
 * port, a fresh data directory, no local chain (the shared test server runs one
 * on its fixed port), `X-Forwarded-For` believed from loopback as on the shared
 * server. For a spec that changes what the shared server's specs rely on.
 */
export async function startOwnServer(entry: string, env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-e2e-own-'));
  const url = `http://localhost:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', path.join('e2e/servers', entry)], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HALYARD_DATA_DIR: dataDir,
      HALYARD_DEMO: 'true',
      PUBLIC_URL: url,
      WALLET_LOCAL_CHAIN: 'false',
      LOG_LEVEL: 'warn',
      TRUSTED_PROXIES: '127.0.0.1,::1',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(`${url}/home/versions`, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, process: server, stop };
}
