import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from './server.ts';
import { registerWebApp } from './web-app.ts';

function fakeDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'halyard-web-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Halyard</title></head><body><div id="root"></div></body></html>',
  );
  mkdirSync(path.join(dir, 'app'));
  writeFileSync(path.join(dir, 'app', 'index-abc.js'), 'console.log(1)');
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml' };
let http: Awaited<ReturnType<typeof createHttpServer>>;

async function serverWith(distDir: string) {
  http = await createHttpServer({ logLevel: 'silent', rateLimits: false });
  http.get('/home/versions', async () => ({ code: 200, msg: '', data: 'api' }));
  const served = await registerWebApp(http, distDir);
  await http.ready();
  return served;
}

afterEach(async () => {
  await http?.close();
});

describe('web app serving', () => {
  it('serves index.html at / and the bundle files', async () => {
    expect(await serverWith(fakeDist())).toBe(true);
    const root = await http.inject({ method: 'GET', url: '/', headers: html });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>Halyard</title>');
    const bundle = await http.inject({ method: 'GET', url: '/app/index-abc.js' });
    expect(bundle.body).toBe('console.log(1)');
    expect(bundle.headers['cache-control']).toContain('immutable');
  });

  it('serves the installable app files at the root, revalidated on each use', async () => {
    const dist = fakeDist();
    writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Halyard"}');
    mkdirSync(path.join(dist, 'icons'));
    writeFileSync(path.join(dist, 'icons', 'icon-192.png'), 'png');
    await serverWith(dist);
    const expected: [string, string][] = [
      ['/sw.js', 'text/javascript'],
      ['/manifest.webmanifest', 'application/manifest+json'],
      ['/icons/icon-192.png', 'image/png'],
    ];
    for (const [url, type] of expected) {
      const response = await http.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain(type);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('points a client that is not a browser at the app and the API docs from /', async () => {
    await serverWith(fakeDist());
    for (const accept of ['*/*', 'application/json']) {
      const root = await http.inject({ method: 'GET', url: '/', headers: { accept, lang: 'en' } });
      expect(root.statusCode).toBe(200);
      expect(root.json()).toEqual({
        code: 200,
        msg: 'Halyard is running. Open this address in a browser to use the app; the API is described at /docs',
        data: null,
      });
    }
  });

  it('answers screen paths that accept HTML with index.html', async () => {
    await serverWith(fakeDist());
    for (const url of [
      '/my',
      '/marketDetails/trad',
      '/exchangeRecord/%7B%7D?x=1',
      '/cycleHistory',
      // Screens whose path is also an API prefix: a reload must give the app, not a JSON 404.
      '/cycle',
      '/ieo',
      '/home',
      '/assets?x=1',
    ]) {
      const response = await http.inject({ method: 'GET', url, headers: html });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('leaves the API alone: its routes answer, its misses are 404 envelopes', async () => {
    await serverWith(fakeDist());
    const api = await http.inject({ method: 'GET', url: '/home/versions', headers: html });
    expect(api.json()).toMatchObject({ data: 'api' });
    const missing = await http.inject({ method: 'GET', url: '/trad/nothing', headers: html });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 404 });
    for (const url of ['/my', '/ieo']) {
      const json = await http.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(json.statusCode).toBe(404);
      expect(json.json()).toMatchObject({ code: 404 });
    }
    const below = await http.inject({ method: 'GET', url: '/ieo/nothing', headers: html });
    expect(below.json()).toMatchObject({ code: 404 });
    const posted = await http.inject({ method: 'POST', url: '/ieo', headers: html });
    expect(posted.json()).toMatchObject({ code: 404 });
  });

  it('serves a rebuilt bundle without a restart', async () => {
    const dist = fakeDist();
    await serverWith(dist);
    writeFileSync(path.join(dist, 'app', 'index-new.js'), 'console.log(2)');
    writeFileSync(path.join(dist, 'index.html'), '<script src="/app/index-new.js"></script>');
    expect((await http.inject({ method: 'GET', url: '/app/index-new.js' })).body).toBe('console.log(2)');
    expect((await http.inject({ method: 'GET', url: '/', headers: html })).body).toContain('index-new.js');
  });

  it("carries the screen's first answers in the visitor's language, and reserves the DEMO strip", async () => {
    http = await createHttpServer({ logLevel: 'silent', rateLimits: false });
    http.get('/home/versions', async (request) => ({
      code: 200,
      msg: '',
      data: { demo: true, lang: request.headers.lang },
    }));
    http.get('/home/banner', async (request) => {
      const { type } = request.query as { type: string };
      return { code: 200, msg: '', data: [{ image: `/${type}.svg</script>` }] };
    });
    http.get('/trad/overview', async () => ({ code: 500, msg: 'down', data: null }));
    await registerWebApp(http, fakeDist());
    await http.ready();

    const home = await http.inject({
      method: 'GET',
      url: '/',
      headers: { ...html, 'accept-language': 'ja-JP,en;q=0.8' },
    });
    const json = /<script type="application\/json" id="hy-first-answers">(.*?)<\/script>/.exec(
      home.body,
    )?.[1];
    expect(json).toBeDefined();
    // "</script>" inside an answer cannot close the element.
    expect(json).not.toContain('</script');
    const first = JSON.parse(json ?? '');
    expect(first.lang).toBe('jp');
    expect(first.answers['/home/versions'].data).toEqual({ demo: true, lang: 'jp' });
    expect(first.answers['/home/banner?type=invite'].data).toEqual([{ image: '/invite.svg</script>' }]);
    // A failed GET is left to the app.
    expect(first.answers['/trad/overview']).toBeUndefined();
    expect(home.body).toContain('<html class="hy-demo"');

    const other = await http.inject({ method: 'GET', url: '/my', headers: html });
    const otherFirst = JSON.parse(/id="hy-first-answers">(.*?)<\/script>/.exec(other.body)?.[1] ?? '');
    expect(Object.keys(otherFirst.answers)).toEqual(['/home/versions']);
  });

  it('does nothing when the app has not been built', async () => {
    expect(await serverWith(mkdtempSync(path.join(tmpdir(), 'halyard-empty-')))).toBe(false);
    const root = await http.inject({ method: 'GET', url: '/', headers: html });
    expect(root.statusCode).toBe(404);
  });
});
