import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** apps/web/dist: where `npm run build -w @halyard/web` puts the app. */
export const WEB_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** Paths owned by the API and the live-data socket: a miss there is an API 404, never the app. */
const API_PREFIXES = [
  '/trad',
  '/contract',
  '/cycle',
  '/account',
  '/flash',
  '/ieo',
  '/fiat',
  '/user',
  '/member',
  '/home',
  '/dev',
  '/admin',
  '/uploads',
  '/assets',
  '/docs',
  '/ws',
];

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the built web app at / with a single-page fallback: a GET for a
 * screen path (/my, /marketDetails/trad…) that accepts HTML gets index.html
 * and the app's router takes over. Registered last, and only when the app has
 * been built, so API routes and their 404 envelopes stay as they are.
 */
export async function registerWebApp(
  http: FastifyInstance,
  distDir: string = WEB_DIST_DIR,
): Promise<boolean> {
  if (!existsSync(path.join(distDir, 'index.html'))) return false;
  await http.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    decorateReply: true,
    // Hashed bundle files never change; index.html must always be fresh.
    setHeaders(reply, filePath) {
      reply.header(
        'cache-control',
        filePath.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      );
    },
  });
  http.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (!wantsHtml(request) || isApiPath(request.url)) return reply.callNotFound();
    return reply.sendFile('index.html');
  });
  return true;
}
