import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Helmet's options: the web app is served from the same origin; its scripts,
 * styles and images are all local. Wallet providers inject into the page, not fetch.
 */
const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'", 'ws:', 'wss:'],
    },
  },
};

/**
 * Helmet's security headers on every answer, worked out once. @fastify/helmet
 * builds its middleware anew for every request (the policy parsed, a closure
 * made, a dozen header writes): a twentieth of an order's server time. With
 * these options nothing in them depends on the request (no nonces, no
 * directive functions), so the headers it sets on one probe request are the
 * headers of every request, and are set from that list.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  // Reply headers, not the raw response's: Node then writes Fastify's headers
  // in one pass instead of first merging them into headers set on the response.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers @fastify/helmet sets, as it sets them on one request of a throwaway instance. */
async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, HELMET_OPTIONS);
    probe.get('/', async (_request, reply) => reply.raw.getHeaders());
    const headers = (await probe.inject({ method: 'GET', url: '/' })).json() as Record<string, string>;
    if (Object.keys(headers).length === 0) throw new Error('security headers: helmet set none on the probe');
    return headers;
  } finally {
    await probe.close();
  }
}
