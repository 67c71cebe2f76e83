import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adminTokenMatches, requireUser } from './auth.ts';
import { ok } from './envelope.ts';
import { badRequest, forbidden } from './errors.ts';
import { redactUrl } from './log-redaction.ts';
import { createHttpServer, UPLOAD_LIMIT_BYTES } from './server.ts';
import { readUploadedFile } from './uploads.ts';

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
  app.get('/admin', async (request) => {
    if (!adminTokenMatches(request, 'secret-admin-token')) throw forbidden('common.forbidden');
    return ok('yes');
  });
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

  it('compares the admin token exactly', async () => {
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

describe('the input boundary', () => {
  async function boundaryServer() {
    const app = await createHttpServer({ logLevel: 'silent' });
    let commands = 0;
    app.post('/command', async () => {
      commands += 1;
      return ok({ commands });
    });
    app.post(
      '/lever',
      {
        schema: {
          body: {
            type: 'object',
            properties: {
              lever: { type: 'integer' },
              price: { type: 'string' },
              agreed: { type: 'boolean' },
            },
          },
          querystring: { type: 'object', properties: { page: { type: 'integer' } } },
        },
      },
      async (request) => ok({ body: request.body, query: request.query }),
    );
    app.post('/unwritable', async () => ok({ big: 10n }));
    app.get('/items/:id', async () => ok(null));
    await app.ready();
    return { app, commands: () => commands };
  }

  it('answers a prototype name as the language in English, and a command runs once and says so', async () => {
    const { app, commands } = await boundaryServer();
    for (const headers of [
      { lang: '__proto__' },
      { lang: 'constructor' },
      { 'accept-language': 'toString' },
    ]) {
      const answer = await app.inject({ method: 'POST', url: '/command', headers });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ code: 200, msg: 'Success' });
    }
    expect(commands()).toBe(3);
    const missing = await app.inject({ method: 'GET', url: '/nowhere', headers: { lang: '__proto__' } });
    expect(missing.json()).toEqual({ code: 404, msg: 'Not found', data: null });
  });

  it('reports a command that ran as done even when its data cannot be written', async () => {
    const { app } = await boundaryServer();
    const answer = await app.inject({ method: 'POST', url: '/unwritable' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ code: 200, msg: 'Success', data: null });
  });

  it('never reads a JSON boolean as a number or text, and still reads query text as numbers', async () => {
    const { app } = await boundaryServer();
    for (const body of [{ lever: true }, { lever: false }, { price: true }]) {
      const refused = await app.inject({ method: 'POST', url: '/lever', payload: body });
      expect(refused.json(), JSON.stringify(body)).toEqual({
        code: 400,
        msg: `Invalid parameter: ${Object.keys(body)[0]}`,
        data: null,
      });
    }
    const accepted = await app.inject({
      method: 'POST',
      url: '/lever?page=2',
      payload: { lever: 5, price: 1.5, agreed: true },
    });
    expect(accepted.json().data).toEqual({
      body: { lever: 5, price: '1.5', agreed: true },
      query: { page: 2 },
    });
  });

  it('refuses a text that reads as an infinite number where a number is expected', async () => {
    const { app } = await boundaryServer();
    for (const page of ['Infinity', '-Infinity', '1e400']) {
      const refused = await app.inject({ method: 'POST', url: `/lever?page=${page}`, payload: {} });
      expect(refused.json(), page).toEqual({ code: 400, msg: 'Invalid parameter: page', data: null });
    }
    const text = await app.inject({ method: 'POST', url: '/lever', payload: { price: 'Infinity' } });
    expect(text.json().data.body).toEqual({ price: 'Infinity' });
  });

  it('answers an oversized JSON body with the request limit, not the image limit', async () => {
    const { app } = await boundaryServer();
    const payload = JSON.stringify({ price: 'x'.repeat(UPLOAD_LIMIT_BYTES + 2 * 1024 * 1024) });
    const answer = await app.inject({
      method: 'POST',
      url: '/lever',
      payload,
      headers: { 'content-type': 'application/json', lang: 'cn' },
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({ code: 413, msg: '请求内容过大', data: null });
  });

  it('answers a too-long path parameter and a malformed path with envelopes', async () => {
    const { app } = await boundaryServer();
    const long = await app.inject({
      method: 'GET',
      url: `/items/${'9'.repeat(200)}`,
      headers: { lang: 'ru' },
    });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ code: 414, msg: 'Слишком длинный адрес', data: null });
    const malformed = await app.inject({ method: 'GET', url: '/items/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 400, msg: 'The address is malformed', data: null });
  });

  it('answers headers over the size limit and garbage on the wire with envelopes', async () => {
    const { app } = await boundaryServer();
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const huge = await rawRequest(
        port,
        `GET /command HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(huge.status).toBe(431);
      expect(huge.body).toEqual({ code: 431, msg: 'The request headers are too large', data: null });
      const garbage = await rawRequest(port, 'NOT A REQUEST\r\n\r\n');
      expect(garbage.status).toBe(400);
      expect(garbage.body).toEqual({ code: 400, msg: 'Malformed request', data: null });
    } finally {
      await app.close();
    }
  });
});

describe('uploads', () => {
  it('answer a body that is not well-formed multipart with 400, and read a good one', async () => {
    const app = await createHttpServer({ logLevel: 'silent' });
    app.post('/upload', async (request) => {
      const file = await readUploadedFile(request);
      return ok(file && { field: file.field, text: file.bytes.toString() });
    });
    await app.ready();
    const send = (payload: string, type = 'multipart/form-data; boundary=x') =>
      app.inject({ method: 'POST', url: '/upload', payload, headers: { 'content-type': type } });
    const part = '--x\r\nContent-Disposition: form-data; name="imgurl"; filename="a.png"\r\n\r\n';
    for (const [payload, type] of [
      ['garbage', 'multipart/form-data'],
      ['garbage', undefined],
      [`${part}cut short`, undefined],
    ] as const) {
      const answer = await send(payload, type);
      expect(answer.statusCode, payload).toBe(400);
      expect(answer.json()).toEqual({ code: 400, msg: 'Malformed request', data: null });
    }
    expect((await send(`${part}hello\r\n--x--\r\n`)).json().data).toEqual({ field: 'imgurl', text: 'hello' });
  });
});

describe('request logs', () => {
  it('redact e-mail addresses and phone numbers in the URL', () => {
    expect(redactUrl('/user/getCode?account=a%40b.com&purpose=register')).toBe(
      '/user/getCode?account=[redacted]&purpose=register',
    );
    expect(redactUrl('/user/getCode?account=13812345678&areaCode=86')).toBe(
      '/user/getCode?account=[redacted]&areaCode=86',
    );
    expect(redactUrl('/x?q=%2B44%2020%207946%200958&to=me@example.com&page=2')).toBe(
      '/x?q=[redacted]&to=[redacted]&page=2',
    );
    expect(redactUrl('/admin/users/a@b.com/audit?limit=10')).toBe('/admin/users/[redacted]/audit?limit=10');
    expect(redactUrl('/trad/kline?pairname=BTC%2FUSDT&date=1711111111111')).toBe(
      '/trad/kline?pairname=BTC%2FUSDT&date=1711111111111',
    );
  });

  it('log a request without its body and with its URL redacted', async () => {
    const lines: string[] = [];
    const app = await createHttpServer({
      logLevel: 'info',
      logStream: { write: (line) => lines.push(line) },
    });
    app.post('/member/login', async () => ok(null));
    await app.ready();
    await app.inject({
      method: 'POST',
      url: '/member/login?account=a%40b.com',
      payload: { account: 'secret@example.com', password: 'hunter22' },
    });
    const logged = lines.join('\n');
    expect(logged).toContain('/member/login?account=[redacted]');
    expect(logged).not.toMatch(/a%40b|secret@example|hunter22/);
  });
});

/** Writes bytes to the server as they are and reads the answer's status and JSON body. */
async function rawRequest(port: number, text: string): Promise<{ status: number; body: unknown }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(text);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const answer = Buffer.concat(chunks).toString();
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}
