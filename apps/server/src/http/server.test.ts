import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { requireAdmin, requireUser } from './auth.ts';
import { ok } from './envelope.ts';
import { badRequest } from './errors.ts';
import { createHttpServer } from './server.ts';

async function serverWithRoutes() {
  const app = await createHttpServer({ logLevel: 'silent' });
  const sessions = { resolve: async (token: string) => (token === 'good' ? { id: 7 } : null) };
  app.get('/echo', async () => ok({ hello: 'world' }));
  app.get('/me', { preHandler: requireUser(sessions) }, async (request) => ok({ id: request.user?.id }));
  app.post(
    '/typed',
    { schema: { body: { type: 'object', required: ['price'], properties: { price: { type: 'string' } } } } },
    async () => ok(null),
  );
  app.get('/refuse', async () => {
    throw badRequest('common.invalidParams', { field: 'amount' });
  });
  app.get('/boom', async () => {
    throw new Error('a bug');
  });
  app.get('/admin', { preHandler: requireAdmin('secret-admin-token') }, async () => ok('yes'));
  await app.ready();
  return app;
}

describe('HTTP conventions', () => {
  it('wraps data in the {code,msg,data} envelope', async () => {
    const app = await serverWithRoutes();
    const response = await app.inject({ method: 'GET', url: '/echo' });
    expect(response.json()).toEqual({ code: 200, msg: 'Success', data: { hello: 'world' } });
  });

  it('localises messages from the lang header, then Accept-Language', async () => {
    const app = await serverWithRoutes();
    const cn = await app.inject({ method: 'GET', url: '/refuse', headers: { lang: 'cn' } });
    expect(cn.json()).toMatchObject({ code: 400, msg: '参数错误：amount', data: null });
    const ru = await app.inject({
      method: 'GET',
      url: '/refuse',
      headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
    });
    expect(ru.json().msg).toBe('Неверный параметр: amount');
    const fallback = await app.inject({ method: 'GET', url: '/refuse', headers: { lang: 'xx' } });
    expect(fallback.json().msg).toBe('Invalid parameter: amount');
  });

  it('answers 401 without a live token and passes the user with one', async () => {
    const app = await serverWithRoutes();
    expect((await app.inject({ method: 'GET', url: '/me' })).json()).toMatchObject({
      code: 401,
      msg: 'Please log in',
    });
    expect((await app.inject({ method: 'GET', url: '/me', headers: { token: 'bad' } })).json().code).toBe(
      401,
    );
    const me = await app.inject({ method: 'GET', url: '/me', headers: { token: 'good' } });
    expect(me.json()).toMatchObject({ code: 200, data: { id: 7 } });
  });

  it('turns schema failures into a localised 400 naming the field', async () => {
    const app = await serverWithRoutes();
    const response = await app.inject({ method: 'POST', url: '/typed', payload: {} });
    expect(response.json()).toEqual({ code: 400, msg: 'Invalid parameter: price', data: null });
  });

  it('hides bugs behind "unknown error" with code 500', async () => {
    const app = await serverWithRoutes();
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: 'Unknown error', data: null });
  });

  it('answers unknown paths with a 404 envelope', async () => {
    const app = await serverWithRoutes();
    const response = await app.inject({ method: 'GET', url: '/nowhere', headers: { lang: 'jp' } });
    expect(response.json()).toEqual({ code: 404, msg: '見つかりません', data: null });
  });

  it('guards operator routes with the admin token', async () => {
    const app = await serverWithRoutes();
    expect((await app.inject({ method: 'GET', url: '/admin' })).json().code).toBe(403);
    const wrong = await app.inject({
      method: 'GET',
      url: '/admin',
      headers: { 'admin-token': 'secret-admin-tokeX' },
    });
    expect(wrong.json().code).toBe(403);
    const right = await app.inject({
      method: 'GET',
      url: '/admin',
      headers: { 'admin-token': 'secret-admin-token' },
    });
    expect(right.json()).toMatchObject({ code: 200, data: 'yes' });
  });

  it('sends security headers on every answer and serves the OpenAPI document', async () => {
    const app = await serverWithRoutes();
    for (const url of ['/echo', '/refuse', '/boom', '/nowhere']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security']).toContain('max-age=');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
          "frame-ancestors 'self';img-src 'self' data: blob:;object-src 'none';script-src 'self';" +
          "script-src-attr 'none';style-src 'self' 'unsafe-inline';upgrade-insecure-requests;" +
          "connect-src 'self' ws: wss:",
      );
    }
    const docs = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(docs.json().paths).toHaveProperty('/typed');
  });

  it('compresses answers over 1 KiB for clients that accept it, and only for them', async () => {
    const app = await createHttpServer({ logLevel: 'silent' });
    const rows = Array.from({ length: 200 }, (_, id) => ({ id, price: '63250.5', amount: '0.01' }));
    app.get('/big', async () => ok(rows));
    app.get('/small', async () => ok({ hello: 'world' }));
    await app.ready();
    const plain = await app.inject({ method: 'GET', url: '/big' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await app.inject({ method: 'GET', url: '/big', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await app.inject({ method: 'GET', url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const small = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
