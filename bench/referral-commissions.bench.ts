/**
 * What referral commissions add to a spot trade (issue 17: target under 5 %),
 * end to end through the spot service on a SQLite file, as bench/spot.bench.ts
 * runs it. One app, two groups of users trading BTC/USDT among themselves:
 * `off` — nobody invited them (the anchor); `on` — every one was invited by a
 * user who was invited too, so each fee of a trade pays a level-1 and a
 * level-2 commission (the worst case: one commission row per fee, both sides
 * of every trade). The commissions are credited by the payout sweep, which
 * the app runs every minute: here each phase ends with a sweep, timed, so
 * what it costs to pay a phase's rows counts against the phase that wrote
 * them (the `off` phase's sweep finds nothing). The phases alternate
 * (off, on, off, on, ...) so a slower machine weighs on both alike; both
 * phases of a round place the very same orders, so they print the same
 * trades, and each phase's resting orders are cancelled after it (untimed).
 * Prints trades and orders per second of each, the ratio over all rounds, and
 * the median of the rounds' ratios (which a burst of another process's work
 * in one round does not move).
 *
 * BENCH_MONEY_CORE=1 runs spot and the commissions on the sequenced core
 * (issue 19's cut-over: the money state computes them in the trade's command,
 * the projector writes the rows behind in a worker thread, the sweep is the
 * state's `referralPayout`); the CPU figures then count the worker's too.
 *
 *   npm run bench:referral        (node --import tsx bench/referral-commissions.bench.ts)
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

const USERS_PER_GROUP = 20;
const ORDERS_PER_PHASE = 3_000;
/** Rounds of off and on (ROUNDS=16 npm run bench:referral on a busy machine: the medians settle). */
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const IN_FLIGHT = 128;
const WARMUP = 1_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-referral-bench-'));
const config = loadConfig({ HALYARD_DATA_DIR: dataDir, LOG_LEVEL: 'silent', HALYARD_DEMO: 'true' });
const store = await openStore(config);
const onCore = process.env.BENCH_MONEY_CORE === '1';
const app = await createApp({
  config,
  store,
  clock: systemClock,
  rateLimits: false,
  ...(onCore
    ? { moneyCore: { dataDir: path.join(dataDir, 'core'), workerStore: { sqliteFile: config.sqliteFile } } }
    : {}),
});

async function inject<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const response = await app.http.inject({ method, url, ...(payload ? { payload } : {}) });
  const body = response.json() as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${url}: ${body.msg}`);
  return body.data;
}

let registered = 0;
/** A registered user (with `code`'s owner as inviter, if given) with plenty of both coins; answers id and own code. */
async function user(code?: string): Promise<{ id: number; code: string }> {
  const email = `referral-bench${registered++}@example.com`;
  const { demoCode } = await inject<{ demoCode?: string }>(
    'GET',
    `/user/getCode?account=${encodeURIComponent(email)}&purpose=register`,
  );
  const { member } = await inject<{ member: { id: number; invitationCode: string } }>(
    'POST',
    '/member/register',
    {
      account: email,
      code: demoCode,
      password: 'secret123',
      confirmPassword: 'secret123',
      agreed: true,
      ...(code ? { invitationCode: code } : {}),
    },
  );
  await app.ledger.execute(
    ['USDT', 'BTC'].map((asset) => ({
      id: `referral-bench-fund:${member.id}:${asset}`,
      debit: systemAccount('treasury'),
      credit: userAccount(member.id, 'spot'),
      asset,
      amount: Dec.parse(asset === 'USDT' ? '100000000' : '1000000'),
      code: 'bench_funding',
    })),
  );
  return { id: member.id, code: member.invitationCode };
}

const grand = await user();
const inviter = await user(grand.code);
const groups = { off: [] as number[], on: [] as number[] };
for (let index = 0; index < USERS_PER_GROUP; index++) {
  groups.off.push((await user()).id);
  groups.on.push((await user(inviter.code)).id);
}

/**
 * A seeded walk of order parameters: the same flow every run. The high bits
 * of the generator: its low bits repeat with a short period (the lowest one
 * alternates), which would make every order of a phase the same side.
 */
let seed = 12345;
/** Starts the walk over: both groups of a round place the very same orders, so they print the same trades. */
function reseed(value: number): void {
  seed = value;
}
function next(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed >>> 16;
}

async function place(users: readonly number[]): Promise<void> {
  const side = next() % 2 === 0 ? 'buy' : 'sell';
  // Bids 95.00-100.99, asks 99.00-104.99: they overlap, so about a third of the orders trade on arrival.
  const cents = side === 'buy' ? 9500 + (next() % 600) : 9900 + (next() % 600);
  await app.spot.service.placeForUser(users[next() % users.length]!, {
    tradcoin: 'BTC',
    maincoin: 'USDT',
    side,
    style: 'limit',
    price: Dec.fromUnits(BigInt(cents) * 10n ** 16n).toString(),
    number: `0.${String(1 + (next() % 999)).padStart(3, '0')}`,
  });
}

async function tradeCount(): Promise<number> {
  const row = await store.db
    .selectFrom('spot_trades')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Runs `count` orders of one group; answers what it took and how many trades printed. */
async function phase(users: readonly number[], count: number) {
  const tradesBefore = await tradeCount();
  let started = 0;
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const worker = async () => {
    while (started < count) {
      started += 1;
      await place(users);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  // The payout sweep of what the phase accrued (one transaction: a transfer per earner, coin and kind).
  await app.referral.payCommissions();
  const elapsedMs = performance.now() - began;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const trades = (await tradeCount()) - tradesBefore;
  // Untimed: the group's resting orders leave the book, so the next phase trades within its own group only.
  await Promise.all(
    users.map((id) => app.spot.service.cancelAllForUser(id, { tradcoin: 'BTC', maincoin: 'USDT' })),
  );
  return { elapsedMs, cpuMs, trades };
}

reseed(1);
await phase(groups.off, WARMUP);
reseed(1);
await phase(groups.on, WARMUP);
const totals = { off: { elapsedMs: 0, cpuMs: 0, trades: 0 }, on: { elapsedMs: 0, cpuMs: 0, trades: 0 } };
/** Each round's on / off ratios of wall time and CPU: their medians shrug off a round another process disturbed. */
const wallRatios: number[] = [];
const cpuRatios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const results = { off: { elapsedMs: 0, cpuMs: 0, trades: 0 }, on: { elapsedMs: 0, cpuMs: 0, trades: 0 } };
  for (const name of ['off', 'on'] as const) {
    reseed(1000 + round);
    results[name] = await phase(groups[name], ORDERS_PER_PHASE);
    totals[name].elapsedMs += results[name].elapsedMs;
    totals[name].cpuMs += results[name].cpuMs;
    totals[name].trades += results[name].trades;
  }
  wallRatios.push(results.on.elapsedMs / results.off.elapsedMs);
  cpuRatios.push(results.on.cpuMs / results.off.cpuMs);
}
/** A ratio as the share it adds, signed: 1.043 is "+4.3 %". */
const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${(100 * (ratio - 1)).toFixed(1)} %`;
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const commissionRows = await store.db
  .selectFrom('referral_commissions')
  .select((eb) => eb.fn.countAll<number | string>().as('count'))
  .executeTakeFirstOrThrow();

const orders = ROUNDS * ORDERS_PER_PHASE;
const rate = (name: 'off' | 'on') => ({
  trades: (totals[name].trades * 1000) / totals[name].elapsedMs,
  orders: (orders * 1000) / totals[name].elapsedMs,
  // This process's CPU per order (user + system): on a shared machine it moves less than the wall clock.
  cpuPerOrder: totals[name].cpuMs / orders,
});
const off = rate('off');
const on = rate('on');
console.log(
  `spot with referral commissions (SQLite file, ${onCore ? 'on the sequenced core' : 'on SQL'}, ${IN_FLIGHT} in flight, ${USERS_PER_GROUP} users a group, ` +
    `${ROUNDS} alternating rounds of ${ORDERS_PER_PHASE} orders):`,
);
console.log(
  `  off (no inviter):           ${off.trades.toFixed(0)} trades/s, ${off.orders.toFixed(0)} orders/s, CPU ${off.cpuPerOrder.toFixed(3)} ms/order (${totals.off.trades} trades)`,
);
console.log(
  `  on (inviter and level 2):   ${on.trades.toFixed(0)} trades/s, ${on.orders.toFixed(0)} orders/s, CPU ${on.cpuPerOrder.toFixed(3)} ms/order (${totals.on.trades} trades, ${Number(commissionRows.count)} commission rows)`,
);
console.log(
  `  on / off: ${(on.trades / off.trades).toFixed(3)} by trades/s, ${(on.orders / off.orders).toFixed(3)} by orders/s; ` +
    `added: ${(100 * (off.trades / on.trades - 1)).toFixed(1)} % wall time per trade, ` +
    `${(100 * (on.cpuPerOrder / off.cpuPerOrder - 1)).toFixed(1)} % CPU per order; load ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
);
const quartiles = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${percent(sorted[Math.floor((sorted.length - 1) / 4)]!)} to ${percent(sorted[Math.ceil((3 * (sorted.length - 1)) / 4)]!)}`;
};
console.log(
  `  median of the ${ROUNDS} rounds' on / off (the same orders and trades in both): ` +
    `${percent(median(wallRatios))} wall time (quartiles ${quartiles(wallRatios)}), ` +
    `${percent(median(cpuRatios))} CPU per trade (quartiles ${quartiles(cpuRatios)}); target under 5 %`,
);

await app.close();
await store.close();
fs.rmSync(dataDir, { recursive: true, force: true });
