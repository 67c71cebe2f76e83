import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ADMIN_DIST_DIR } from '../paths.ts';

/**
 * The console's page policy, stricter than the web app's: only its own scripts (no inline
 * script), no plug-ins, no framing at all, and calls to its own origin only. antd writes its
 * styles into <style> elements at run time, so inline styles stay allowed (styles cannot run code).
 */
export const ADMIN_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The bundle folder inside the console's dist (vite `build.assetsDir`): /admin/assets/, no API route there. */
const ADMIN_BUNDLE_DIR = 'assets';

function withPagePolicy(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', ADMIN_CONTENT_SECURITY_POLICY)
    .header('x-frame-options', 'DENY');
}

/**
 * Serves the built operator console (apps/admin) at /admin/: index.html there and its hashed
 * bundle under /admin/assets/. Its screens are hash routes (/admin/#/users), so every other
 * /admin/... path stays the API's. The security headers of every answer apply, with the page
 * policy above in place of the web app's. Registered only when the console has been built.
 */
export async function registerAdminApp(
  http: FastifyInstance,
  distDir: string = ADMIN_DIST_DIR,
): Promise<boolean> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  await http.register(fastifyStatic, {
    root: path.join(distDir, ADMIN_BUNDLE_DIR),
    prefix: `/admin/${ADMIN_BUNDLE_DIR}/`,
    decorateReply: false,
    index: false,
    setHeaders(reply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('content-security-policy', ADMIN_CONTENT_SECURITY_POLICY);
    },
  });
  http.get('/admin', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/admin/'));
  http.get('/admin/', { schema: { hide: true } }, async (_request, reply) =>
    // index.html names the current bundle: never cached, re-read after a rebuild.
    withPagePolicy(reply)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await readFile(indexFile, 'utf8')),
  );
  return true;
}
