import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SequencerStoppedError } from '../core/sequencer/index.ts';
import type { MoneyCommand } from '../core/state/index.ts';
import { type Harness, startHarness } from '../modules/identity/test-support.ts';
import { exitWhenCoreStops } from '../start.ts';
import { type Readiness, registerHealth, serveHealth } from './health.ts';
import { createHttpServer } from './server.ts';

const ready: Readiness = { ready: true, role: 'sequencer', checks: { leading: false, behind: 3 } };
const notReady: Readiness = { ready: false, role: 'gateway', checks: { nats: true, behind: 5_000 } };

describe('/healthz and /readyz', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ moneyCore: true });
  });
  afterAll(() => h.close());

  it('answer on the all-in-one app: alive, and ready once the core and the database answer', async () => {
    const alive = await h.app.http.inject({ method: 'GET', url: '/healthz' });
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ alive: true });
    const readiness = await h.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(readiness.statusCode).toBe(200);
    expect(readiness.json()).toEqual({
      ready: true,
      role: 'all-in-one',
      checks: { database: true, core: true, coreStopped: false },
    });
  });

  it('answer 503 once the core stopped for good, and the server exits for its supervisor to restart it', async () => {
    const broken = await startHarness({ moneyCore: true });
    const exits: number[] = [];
    exitWhenCoreStops(broken.app, (code) => exits.push(code));
    try {
      const core = broken.app.moneyCore!;
      // A bug in the state, played by a command the edge would never build: the machine throws on it.
      const poisoned = { kind: 'openPair', at: broken.clock.now(), pair: null } as unknown as MoneyCommand;
      await expect(core.submit(poisoned)).rejects.toBeInstanceOf(SequencerStoppedError);
      expect(exits).toEqual([1]);
      const readiness = await broken.app.http.inject({ method: 'GET', url: '/readyz' });
      expect(readiness.statusCode).toBe(503);
      expect(readiness.json()).toMatchObject({ ready: false, checks: { coreStopped: true } });
      // Every money command after it is refused: nothing is applied that the disk may not hold.
      await expect(core.submit(poisoned)).rejects.toBeInstanceOf(SequencerStoppedError);
    } finally {
      await broken.close();
    }
    expect(exits).toEqual([1]);
  });

  it('answer 503 with the checks when not ready, or when the check itself fails', async () => {
    let answer: () => Promise<Readiness> = async () => notReady;
    const http: FastifyInstance = await createHttpServer({ logLevel: 'silent' });
    registerHealth(http, () => answer());
    try {
      const refused = await http.inject({ method: 'GET', url: '/readyz' });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual(notReady);
      answer = async () => {
        throw new Error('NATS is closed');
      };
      const failed = await http.inject({ method: 'GET', url: '/readyz' });
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toEqual({ ready: false, error: 'NATS is closed' });
      expect((await http.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await http.close();
    }
  });

  it('are served on a port of their own for a sequencer, and nothing else is', async () => {
    let answer = ready;
    const server = await serveHealth(0, '127.0.0.1', async () => answer);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const leading = await fetch(`${base}/readyz`);
      expect(leading.status).toBe(200);
      expect(await leading.json()).toEqual(ready);
      answer = { ...notReady, role: 'sequencer' };
      expect((await fetch(`${base}/readyz?probe=1`)).status).toBe(503);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/status`)).status).toBe(404);
      expect((await fetch(`${base}/readyz`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
