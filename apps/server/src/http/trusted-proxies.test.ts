import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createHttpServer } from './server.ts';

/** A server with one per-IP limited route (2 a minute) that answers the client address it sees. */
async function serverTrusting(trustedProxies: string[]): Promise<FastifyInstance> {
  const http = await createHttpServer({ logLevel: 'silent', trustedProxies });
  http.get('/ip', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async (request) => ({
    ip: request.ip,
  }));
  await http.ready();
  return http;
}

let http: FastifyInstance | null = null;
afterEach(async () => {
  await http?.close();
  http = null;
});

/** Three requests from `remoteAddress`, each claiming another client address. */
async function threeForgedClients(server: FastifyInstance, remoteAddress: string) {
  const answers = [];
  for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
    const response = await server.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress,
      headers: { 'x-forwarded-for': forged },
    });
    answers.push({ status: response.statusCode, body: response.json() as { ip?: string } });
  }
  return answers;
}

describe('X-Forwarded-For', () => {
  it('is ignored by default: a forged header neither changes request.ip nor escapes a per-IP limit', async () => {
    http = await serverTrusting([]);
    const answers = await threeForgedClients(http, '203.0.113.9');
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[0]?.body.ip).toBe('203.0.113.9');
  });

  it('is believed from a configured proxy (an address or a CIDR), and only from it', async () => {
    http = await serverTrusting(['10.0.0.0/8']);
    const viaProxy = await threeForgedClients(http, '10.1.2.3');
    expect(viaProxy.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(viaProxy.map((answer) => answer.body.ip)).toEqual([
      '198.51.100.1',
      '198.51.100.2',
      '198.51.100.3',
    ]);
    const direct = await threeForgedClients(http, '203.0.113.9');
    expect(direct.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(direct[0]?.body.ip).toBe('203.0.113.9');
  });
});

describe('listening and proxies in config', () => {
  it('listens on loopback and trusts no proxy unless told', () => {
    const config = loadConfig({});
    expect(config.host).toBe('127.0.0.1');
    expect(config.trustedProxies).toEqual([]);
  });

  it('reads HOST and TRUSTED_PROXIES', () => {
    const config = loadConfig({ HOST: '0.0.0.0', TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1' });
    expect(config.host).toBe('0.0.0.0');
    expect(config.trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });
});
