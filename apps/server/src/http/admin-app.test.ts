import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAdminApp } from './admin-app.ts';
import { createHttpServer } from './server.ts';
import { registerWebApp } from './web-app.ts';

function fakeDist(title: string, bundleDir: string, bundleFile: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'halyard-admin-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><title>${title}</title></head></html>`,
  );
  mkdirSync(path.join(dir, bundleDir));
  writeFileSync(path.join(dir, bundleDir, bundleFile), 'console.log(1)');
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml' };
let http: Awaited<ReturnType<typeof createHttpServer>>;

async function serverWithConsole(): Promise<void> {
  http = await createHttpServer({ logLevel: 'silent', rateLimits: false });
  http.get('/admin/auth/me', async () => ({ code: 200, msg: '', data: 'api' }));
  await registerAdminApp(http, fakeDist('Console', 'assets', 'index-abc.js'));
  await registerWebApp(http, fakeDist('Halyard', 'app', 'index-def.js'));
  await http.ready();
}

afterEach(async () => {
  await http?.close();
});

describe('operator console serving', () => {
  it('serves the console at /admin/ with a strict page policy, and its bundle under /admin/assets/', async () => {
    await serverWithConsole();
    const page = await http.inject({ method: 'GET', url: '/admin/', headers: html });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Console</title>');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const bundle = await http.inject({ method: 'GET', url: '/admin/assets/index-abc.js' });
    expect(bundle.body).toBe('console.log(1)');
    expect(bundle.headers['cache-control']).toContain('immutable');
  });

  it('sends /admin to /admin/ and leaves every other /admin path to the API', async () => {
    await serverWithConsole();
    const bare = await http.inject({ method: 'GET', url: '/admin', headers: html });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/admin/');
    expect((await http.inject({ method: 'GET', url: '/admin/auth/me', headers: html })).json().data).toBe(
      'api',
    );
    const missing = await http.inject({ method: 'GET', url: '/admin/nothing', headers: html });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<title>');
  });

  it('is not served when the console has not been built', async () => {
    http = await createHttpServer({ logLevel: 'silent', rateLimits: false });
    expect(await registerAdminApp(http, mkdtempSync(path.join(tmpdir(), 'halyard-admin-')))).toBe(false);
  });
});
