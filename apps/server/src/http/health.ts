import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Role } from '../config.ts';
import type { Db } from '../store/database.ts';

/**
 * What `GET /readyz` answers: whether this process should be sent work now,
 * its role, and the checks that decided it (each true when it passed, or a
 * figure). A load balancer or supervisor reads `ready` (and the status: 200
 * or 503); operators read the rest.
 */
export interface Readiness {
  ready: boolean;
  role: Role;
  checks: Record<string, boolean | number | string | null>;
}

export type ReadinessCheck = () => Promise<Readiness>;

/**
 * Liveness and readiness (docs/deployment.md, "What to monitor"): `/healthz`
 * answers 200 while the process serves at all; `/readyz` answers 200 when
 * `readiness` says ready, 503 otherwise, with the checks either way. Plain
 * JSON, not the API's envelope: probes read the status line.
 */
export async function healthAnswer(
  path: string,
  readiness: ReadinessCheck,
): Promise<{ status: number; body: unknown } | null> {
  if (path === '/healthz') return { status: 200, body: { alive: true } };
  if (path !== '/readyz') return null;
  try {
    const answer = await readiness();
    return { status: answer.ready ? 200 : 503, body: answer };
  } catch (error) {
    return {
      status: 503,
      body: { ready: false, error: error instanceof Error ? error.message : String(error) },
    };
  }
}

/** The two routes on the app's HTTP server (all-in-one and gateway). */
export function registerHealth(server: FastifyInstance, readiness: ReadinessCheck): void {
  for (const path of ['/healthz', '/readyz']) {
    // Probes ask every few seconds: their requests are not logged.
    server.get(path, { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
      const answer = (await healthAnswer(path, readiness))!;
      return reply.status(answer.status).send(answer.body);
    });
  }
}

/**
 * The two routes on a small HTTP server of their own: a sequencer serves no
 * API, only these (HALYARD_HEALTH_PORT). Resolves once it listens.
 */
export async function serveHealth(
  port: number,
  host: string,
  readiness: ReadinessCheck,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    void healthAnswer(request.method === 'GET' ? path : '', readiness).then((answer) => {
      response.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer?.body ?? { error: 'not found' }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether the database answers a trivial query. */
export async function databaseReachable(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
