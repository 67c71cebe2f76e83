import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

/** Screens whose path is also an API prefix: the bare path is the screen (spec §2 /cycle). */
const SCREENS_AT_PREFIX = ['/cycle'];

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  if (SCREENS_AT_PREFIX.includes(pathname)) return false;
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** The bundle folder inside dist (vite `build.assetsDir`): hashed names, cached for good. */
const BUNDLE_DIR = 'app';

/**
 * Serves the built web app at / with a single-page fallback: a GET for a
 * screen path (/my, /marketDetails/trad…) that accepts HTML gets index.html
 * and the app's router takes over. Registered last, and only when the app has
 * been built, so API routes and their 404 envelopes stay as they are. Files
 * are looked up per request, so a rebuild needs no restart.
 */
export async function registerWebApp(
  http: FastifyInstance,
  distDir: string = WEB_DIST_DIR,
): Promise<boolean> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  await http.register(fastifyStatic, {
    root: path.join(distDir, BUNDLE_DIR),
    prefix: `/${BUNDLE_DIR}/`,
    decorateReply: false,
    index: false,
    setHeaders(reply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!wantsHtml(request) || isApiPath(request.url)) return reply.callNotFound();
    // index.html names the current bundle: never cached, re-read after a rebuild.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await readFile(indexFile));
  };
  http.get('/', { schema: { hide: true } }, sendIndex);
  http.get('/*', { schema: { hide: true } }, sendIndex);
  return true;
}
