/**
 * Spot order throughput end to end through the spot service, on a SQLite file
 * (WAL, synchronous=FULL), as Halyard runs by default: identity checks, spec
 * rules, ledger hold, matching, settlement and order rows, each order
 * acknowledged only after its group's transaction commits.
 *
 *   npx tsx bench/spot.bench.ts
 *
 * Many clients place limit orders at once on one pair (prices around 100, so
 * about a third of them trade); the pair's queue group-commits them. Prints
 * orders per second and the ratio to the anchor, and the CPU time per order
 * (this process, user + system): on a shared machine it moves less than the
 * wall clock does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import { createApp } from '../apps/server/src/app.ts';
import { systemClock } from '../apps/server/src/clock.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { systemAccount, userAccount } from '../apps/server/src/ledger/index.ts';
import { openStore } from '../apps/server/src/store/connect.ts';

/** The anchor: a target for one SQLite file on 2 cores, not a measurement. */
const ANCHOR_ORDERS_PER_SECOND = 5_000;
const USERS = 40;
const ORDERS = 20_000;
const IN_FLIGHT = 256;
const WARMUP = 1_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-spot-bench-'));
const config = loadConfig({ HALYARD_DATA_DIR: dataDir, LOG_LEVEL: 'silent', HALYARD_DEMO: 'true' });
const store = await openStore(config);
const app = await createApp({ config, store, clock: systemClock, rateLimits: false });

async function inject<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const response = await app.http.inject({ method, url, ...(payload ? { payload } : {}) });
  const body = response.json() as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${url}: ${body.msg}`);
  return body.data;
}

/** A registered user with a bound email and plenty of both coins. */
async function trader(index: number): Promise<number> {
  const email = `bench${index}@example.com`;
  const { demoCode: code } = await inject<{ demoCode?: string }>(
    'GET',
    `/user/getCode?account=${encodeURIComponent(email)}&purpose=register`,
  );
  const { member } = await inject<{ member: { id: number } }>('POST', '/member/register', {
    account: email,
    code,
    password: 'secret123',
    confirmPassword: 'secret123',
    agreed: true,
  });
  await app.ledger.execute(
    ['USDT', 'BTC'].map((asset) => ({
      id: `bench-fund:${member.id}:${asset}`,
      debit: systemAccount('treasury'),
      credit: userAccount(member.id, 'spot'),
      asset,
      amount: Dec.parse(asset === 'USDT' ? '100000000' : '1000000'),
      code: 'bench_funding',
    })),
  );
  return member.id;
}

const users: number[] = [];
for (let index = 0; index < USERS; index++) users.push(await trader(index));

/** A seeded walk of order parameters: deterministic flow, the same every run. */
let seed = 12345;
function next(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed;
}

async function place(): Promise<void> {
  const side = next() % 2 === 0 ? 'buy' : 'sell';
  // Bids 95.00-100.99, asks 99.00-104.99: they overlap, so some orders trade on arrival.
  const cents = side === 'buy' ? 9500 + (next() % 600) : 9900 + (next() % 600);
  await app.spot.service.placeForUser(users[next() % USERS]!, {
    tradcoin: 'BTC',
    maincoin: 'USDT',
    side,
    style: 'limit',
    price: Dec.fromUnits(BigInt(cents) * 10n ** 16n).toString(),
    number: `0.${String(1 + (next() % 999)).padStart(3, '0')}`,
  });
}

async function run(count: number): Promise<{ elapsedMs: number; cpuMs: number }> {
  let started = 0;
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const worker = async () => {
    while (started < count) {
      started += 1;
      await place();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  return { elapsedMs: performance.now() - began, cpuMs: (cpu.user + cpu.system) / 1000 };
}

await run(WARMUP);
const { elapsedMs, cpuMs } = await run(ORDERS);
const perSecond = (ORDERS * 1000) / elapsedMs;
const book = app.spot.service.market({ tradcoin: 'BTC', maincoin: 'USDT' });
console.log(
  `spot orders end to end (SQLite file, ${IN_FLIGHT} in flight, ${USERS} users): ` +
    `${ORDERS} limit orders in ${(elapsedMs / 1000).toFixed(2)} s = ${perSecond.toFixed(0)} orders/s`,
);
console.log(
  `  CPU ${(cpuMs / ORDERS).toFixed(3)} ms per order (${((100 * cpuMs) / elapsedMs).toFixed(0)}% of one core), ` +
    `load ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
);
console.log(
  `  trades printed: ${book.latestTrades().length > 0 ? 'yes' : 'no'}; ` +
    `ratio to anchor ${ANCHOR_ORDERS_PER_SECOND} orders/s: ${(perSecond / ANCHOR_ORDERS_PER_SECOND).toFixed(2)}`,
);

await app.close();
await store.close();
fs.rmSync(dataDir, { recursive: true, force: true });
