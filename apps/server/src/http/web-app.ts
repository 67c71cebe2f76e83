import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { CODE, type Locale } from '@halyard/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WEB_DIST_DIR } from '../paths.ts';
import { ok } from './envelope.ts';

/**
 * Prefixes of the API and the live-data socket: a miss below one of them is an
 * API 404, never the app. The bare prefix is not: no API route lives there,
 * and several are also screens (spec §2 /cycle, /ieo), so a browser reloading
 * one gets the app.
 */
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
  return API_PREFIXES.some((prefix) => pathname.startsWith(`${prefix}/`));
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** The bundle folder inside dist (vite `build.assetsDir`): hashed names, cached for good. */
const BUNDLE_DIR = 'app';

/**
 * The public GETs a screen makes as it starts, exactly as the web app's api client
 * spells them. Their answers ride inside the page (apps/web/src/shared/first-answers.ts),
 * so the first render has its data without a round trip: on home, the banners are the
 * largest paint. Only answers that are the same for every visitor (no token) belong here.
 */
const FIRST_GETS_EVERY_SCREEN = ['/home/versions'];
const FIRST_GETS_BY_SCREEN: Record<string, string[]> = {
  '/': [
    '/home/banner?type=app',
    '/home/banner?type=invite',
    '/home/articles?page=1&limit=10',
    '/home/aboutUs',
    '/trad/overview',
  ],
};
/** The element the web app reads them from. */
const FIRST_ANSWERS_ID = 'hy-first-answers';

/** What the page carries: each GET's envelope, in the language the server guessed for the visitor. */
interface FirstAnswers {
  lang: Locale;
  answers: Record<string, { code: number; data?: unknown }>;
}

const NO_ANSWERS: FirstAnswers = { lang: 'en', answers: {} };

async function firstAnswers(http: FastifyInstance, pathname: string, lang: Locale): Promise<FirstAnswers> {
  const byScreen = Object.hasOwn(FIRST_GETS_BY_SCREEN, pathname) ? FIRST_GETS_BY_SCREEN[pathname] : undefined;
  const urls = [...FIRST_GETS_EVERY_SCREEN, ...(byScreen ?? [])];
  const replies = await Promise.all(
    urls.map((url) => http.inject({ method: 'GET', url, headers: { lang, accept: 'application/json' } })),
  );
  const answers: FirstAnswers['answers'] = {};
  replies.forEach((reply, index) => {
    const envelope = reply.statusCode === 200 ? reply.json() : null;
    if (envelope?.code === CODE.ok) answers[urls[index] as string] = envelope;
  });
  return { lang, answers };
}

/** JSON safe inside <script>: no "</script>" or "<!--" can close or bend the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * index.html with the screen's first answers, and the DEMO strip's room reserved
 * (AMENDMENTS A5) so nothing moves when the strip appears.
 */
function withFirstAnswers(html: string, first: FirstAnswers): string {
  const versions = first.answers['/home/versions']?.data as { demo?: boolean } | undefined;
  const script = `<script type="application/json" id="${FIRST_ANSWERS_ID}">${scriptJson(first)}</script>`;
  const page = html.replace('</head>', `${script}</head>`);
  return versions?.demo ? page.replace('<html', '<html class="hy-demo"') : page;
}

/**
 * The installable app's files at the root (a service worker controls only the
 * paths below its own). Not hashed, so revalidated on each use: a new build's
 * worker and manifest are seen at once.
 */
const INSTALLABLE_APP_FILES = new Map([
  ['sw.js', 'text/javascript; charset=utf-8'],
  ['manifest.webmanifest', 'application/manifest+json'],
]);

async function registerInstallableAppFiles(http: FastifyInstance, distDir: string): Promise<void> {
  for (const [file, type] of INSTALLABLE_APP_FILES) {
    const filePath = path.join(distDir, file);
    if (!existsSync(filePath)) continue;
    http.get(`/${file}`, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(type)
        .header('cache-control', 'no-cache')
        .send(await readFile(filePath)),
    );
  }
  const iconsDir = path.join(distDir, 'icons');
  if (!existsSync(iconsDir)) return;
  await http.register(fastifyStatic, {
    root: iconsDir,
    prefix: '/icons/',
    decorateReply: false,
    index: false,
    setHeaders(reply) {
      reply.header('cache-control', 'no-cache');
    },
  });
}

/**
 * Serves the built web app at / with a single-page fallback: a GET for a
 * screen path (/my, /marketDetails/trad…) that accepts HTML gets index.html,
 * carrying the screen's first answers, and the app's router takes over.
 * Registered last, and only when the app has been built, so API routes and
 * their 404 envelopes stay as they are. Files are looked up per request, so a
 * rebuild needs no restart.
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
  await registerInstallableAppFiles(http, distDir);
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!wantsHtml(request) || isApiPath(request.url)) return reply.callNotFound();
    const pathname = request.url.split('?')[0] ?? '/';
    const [html, first] = await Promise.all([
      readFile(indexFile, 'utf8'),
      // Without them the app just asks the network: a failure here never costs the page.
      firstAnswers(http, pathname, request.locale).catch((): FirstAnswers => NO_ANSWERS),
    ]);
    // index.html names the current bundle: never cached, re-read after a rebuild.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(withFirstAnswers(html, first));
  };
  // Not a browser (curl, a probe): where the app and the API docs are, rather than a bare 404.
  http.get('/', { schema: { hide: true } }, async (request, reply) =>
    wantsHtml(request) ? sendIndex(request, reply) : ok(null, 'common.serverRoot', { docs: '/docs' }),
  );
  http.get('/*', { schema: { hide: true } }, sendIndex);
  return true;
}
