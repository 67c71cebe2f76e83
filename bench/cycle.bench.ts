/**
 * Cycle settlement throughput on a SQLite file (WAL, synchronous=FULL), as
 * Halyard runs by default: 100 000 contracts that all expire at the same
 * instant are settled by one call of the settlement engine (what one index
 * tick triggers), ledger writes included.
 *
 *   npx tsx bench/cycle.bench.ts
 *
 * Prints settlements per second (wall clock, and per second of this
 * process's CPU time, which other work on a shared machine disturbs less),
 * the ratio to the issue's target, and the load average. CYCLE_BENCH_ORDERS
 * sets the number of orders (default 100 000), CYCLE_BENCH_CHUNK the orders
 * per ledger transaction (default the engine's SETTLE_CHUNK);
 * CYCLE_BENCH_DATABASE_URL runs it on PostgreSQL instead (in a schema of its
 * own, dropped after).
 *
 *   CYCLE_BENCH_STATE=1 npx tsx bench/cycle.bench.ts
 *
 * measures the money state instead (core/state/cycle.ts, in memory, no SQL):
 * the orders are opened with cycleOpen, then ONE cycleSettle command (the
 * tick at their expiry) settles them all, events built as the projector
 * would get them; against the issue's 300 000/s anchor for the state. Five
 * rounds (CYCLE_BENCH_ROUNDS), the median printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import { sql } from 'kysely';
import { ManualClock } from '../apps/server/src/clock.ts';
import { step } from '../apps/server/src/core/sequencer/index.ts';
import { closeToleranceMs } from '../apps/server/src/core/state/cycle-rules.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyState,
  moneyMachine,
} from '../apps/server/src/core/state/index.ts';
import {
  createLedger,
  systemAccount,
  type TransferInput,
  userAccount,
} from '../apps/server/src/ledger/index.ts';
import { SimulatedIndexSource } from '../apps/server/src/market/index-price.ts';
import {
  SETTLE_CHUNK,
  SettlementEngine,
  STAKES,
  stakeTransferId,
} from '../apps/server/src/modules/cycle/settlement.ts';
import { ReferralFees } from '../apps/server/src/modules/referral/fees.ts';
import { openStore } from '../apps/server/src/store/connect.ts';

/** The anchor: the issue's target, settlements per second including the ledger writes. */
const ANCHOR_SETTLEMENTS_PER_SECOND = 100_000;
const ORDERS = Number(process.env.CYCLE_BENCH_ORDERS ?? 100_000);
const USERS = 1_000;
const STAKE = Dec.parse('10');
const INSERT_CHUNK = 500;

const load = (): string =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

/** The anchor of the in-memory mode: issue #19's settlements per second for the sequenced core. */
const STATE_ANCHOR_PER_SECOND = 300_000;
/** Rounds of the in-memory mode: one settlement of 0.3 s is at the mercy of one garbage collection, so the median of several is printed. */
const STATE_ROUNDS = Number(process.env.CYCLE_BENCH_ROUNDS ?? 5);

if (process.env.CYCLE_BENCH_STATE === '1') {
  benchInState();
  process.exit(0);
}

/**
 * STATE_ROUNDS times: ORDERS contracts of USERS users opened on the money
 * state, all expiring at one instant, settled by one command. The state is
 * kept from round to round, as a running core keeps it (the ledger's retry
 * window holds the earlier rounds' transfers).
 */
function benchInState(): void {
  const machine = moneyMachine();
  const state = machine.initialState();
  let seq = 0;
  const apply = (command: MoneyCommand) => {
    seq += 1;
    const applied = step(machine, state, command, seq);
    if (!applied.result.ok) throw new Error(`refused: ${JSON.stringify(applied.result)}`);
    return applied;
  };
  const loadBefore = load();
  const rounds: { seconds: number; cpuSeconds: number }[] = [];
  for (let round = 0; round < STATE_ROUNDS; round++) {
    const at = Date.UTC(2026, 10, 26) + round * 3_600_000;
    openContracts(apply, at, round);
    rounds.push(settleContracts(apply, state, at + 60_000));
  }
  const rates = rounds.map(({ seconds }) => ORDERS / seconds).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)]!;
  console.log(
    `cycle settlement benchmark: the money state in memory, ${os.cpus().length} cores, node ${process.version}`,
  );
  console.log(
    `${STATE_ROUNDS} rounds of ${ORDERS} orders of ${USERS} users expiring at one instant, each settled by ONE cycleSettle (half up, half down: wins and losses)`,
  );
  for (const [index, { seconds, cpuSeconds }] of rounds.entries())
    console.log(
      `  round ${index + 1}: ${seconds.toFixed(3)} s wall, ${cpuSeconds.toFixed(3)} s CPU, ${(ORDERS / seconds).toFixed(0)} settlements/s`,
    );
  console.log(
    `${'settlements per second, in memory, events included'.padEnd(52)} ${median.toFixed(0).padStart(8)}   ${(median / STATE_ANCHOR_PER_SECOND).toFixed(2)}× anchor (${STATE_ANCHOR_PER_SECOND}/s target; median of ${STATE_ROUNDS}, from ${rates[0]!.toFixed(0)} to ${rates.at(-1)!.toFixed(0)})`,
  );
  console.log(`${loadBefore} before, ${load()} after (1, 5, 15 min)`);
}

/** Funds every user for one round's stakes and opens ORDERS contracts expiring one minute after `at`. */
function openContracts(apply: (command: MoneyCommand) => unknown, at: number, round: number): void {
  const funding: TransferInput[] = [];
  for (let user = 1; user <= USERS; user++)
    funding.push({
      id: `bench:fund:${round}:${user}`,
      debit: systemAccount('treasury'),
      credit: userAccount(user, 'spot'),
      asset: 'USDT',
      amount: STAKE.mul(Dec.fromInt(ORDERS / USERS + 1)),
      code: 'test_funding',
    });
  // In batches the ledger accepts (a command's batch is bounded).
  for (let from = 0; from < funding.length; from += 100)
    apply({ kind: 'transfer', at, batch: funding.slice(from, from + 100) });
  for (let n = 0; n < ORDERS; n++) {
    apply({
      kind: 'cycleOpen',
      at,
      userId: 1 + (n % USERS),
      email: 'bench@example.com',
      pairId: 1,
      tradcoin: 'BTC',
      maincoin: 'USDT',
      paycoin: 'USDT',
      side: n % 2 === 0 ? 'buy' : 'sell',
      number: STAKE.toString(),
      seconds: 60,
      minnumber: '1',
      maxnumber: '1000',
      profitGas: '0.85',
      lossGas: '1',
      gas: '0.02',
      openPrice: '100',
      openTs: at,
      openSource: 'bench',
    });
  }
}

/** One cycleSettle at `expiry` (the tick that settles every open contract), timed, its settlements counted. */
function settleContracts(
  apply: (command: MoneyCommand) => { events: readonly MoneyEvent[] },
  state: MoneyState,
  expiry: number,
): { seconds: number; cpuSeconds: number } {
  const cpuBefore = process.cpuUsage();
  const begin = performance.now();
  const { events } = apply({
    kind: 'cycleSettle',
    at: expiry,
    coin: 'BTC',
    price: '101',
    ts: expiry,
    source: 'bench',
    toleranceMs: closeToleranceMs(1000),
  });
  const seconds = (performance.now() - begin) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  let settled = 0;
  for (const event of events)
    if (event.type === 'cycleSettled')
      for (const { settlements } of event.atCloses) settled += settlements.length;
  if (settled !== ORDERS || state.cycle.open.size !== 0) throw new Error(`settled ${settled} of ${ORDERS}`);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

const databaseUrl = process.env.CYCLE_BENCH_DATABASE_URL || null;
const schema = `bench_cycle_${process.pid}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-cycle-bench-'));
const store = await openStore({ databaseUrl, sqliteFile: path.join(dir, 'bench.sqlite'), schema });
const storeName = databaseUrl ? 'PostgreSQL' : 'SQLite file (WAL, synchronous=FULL)';
try {
  const clock = new ManualClock();
  const ledger = createLedger(store, clock);
  const index = new SimulatedIndexSource({
    db: store.db,
    clock,
    seed: 'bench',
    tickMs: 1000,
    onError: console.error,
  });
  const [openTick] = (await index.tick()).filter((tick) => tick.coin === 'BTC');
  if (!openTick) throw new Error('no BTC tick');

  // Setup (not timed): users funded, orders accepted with their stakes held.
  const treasury = systemAccount('treasury');
  for (let first = 1; first <= USERS; first += 500) {
    const batch: TransferInput[] = [];
    for (let user = first; user < first + 500 && user <= USERS; user += 1) {
      batch.push({
        id: `fund-${user}`,
        debit: treasury,
        credit: userAccount(user, 'spot'),
        asset: 'USDT',
        amount: Dec.parse('1000000'),
        code: 'demo',
      });
    }
    await ledger.execute(batch);
  }
  const wdate = clock.now();
  for (let first = 1; first <= ORDERS; first += INSERT_CHUNK) {
    const ids = Array.from(
      { length: Math.min(INSERT_CHUNK, ORDERS - first + 1) },
      (_, offset) => first + offset,
    );
    const rows = ids.map((orderid) => ({
      orderid,
      user_id: 1 + (orderid % USERS),
      pair_id: 1,
      tradcoin: 'BTC',
      maincoin: 'USDT',
      paycoin: 'USDT',
      type: orderid % 2 === 0 ? ('buy' as const) : ('sell' as const),
      number: STAKE.toString(),
      seconds: 30,
      profit_gas: '0.8',
      loss_gas: '1',
      gas: '0.02',
      open_price: openTick.price.toString(),
      open_ts: openTick.ts,
      open_source: openTick.source,
      wdate,
      expires_at: wdate + 30_000,
    }));
    await store.db.insertInto('cycle_orders').values(rows).execute();
    await store.db
      .insertInto('cycle_open')
      .values(rows.map((row) => ({ orderid: row.orderid })))
      .execute();
    await ledger.execute(
      rows.map((row) => ({
        id: stakeTransferId(row.orderid),
        debit: userAccount(row.user_id, 'spot'),
        credit: STAKES,
        asset: 'USDT',
        amount: STAKE,
        code: 'cycle_stake',
      })),
    );
  }
  clock.advance(30_000);
  await index.tick();

  const chunkMax = Number(process.env.CYCLE_BENCH_CHUNK ?? SETTLE_CHUNK);
  // Its users have no inviter: each chunk reads their profiles once and pays no commission.
  const referral = new ReferralFees(store.db, clock, index);
  const engine = new SettlementEngine({ db: store.db, ledger, clock, index, referral, chunkMax });
  // The open orders, read once as at a start (a running server holds them from their acceptance).
  await engine.load();
  const loadBefore = load();
  const cpuBefore = process.cpuUsage();
  const begin = performance.now();
  const settled = await engine.settleDue(clock.now(), 'BTC');
  const seconds = (performance.now() - begin) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (settled.length !== ORDERS) throw new Error(`settled ${settled.length} of ${ORDERS}`);
  const perSecond = ORDERS / seconds;
  const results = new Map<string, number>();
  for (const { settlement } of settled)
    results.set(settlement.result, (results.get(settlement.result) ?? 0) + 1);
  console.log(`cycle settlement benchmark: ${storeName}, ${os.cpus().length} cores, node ${process.version}`);
  console.log(
    `${ORDERS} orders expiring at one instant, settled in chunks of ${chunkMax} in ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU (user ${(cpu.user / 1e6).toFixed(2)}, system ${(cpu.system / 1e6).toFixed(2)}) (${[...results].map(([result, n]) => `${n} ${result}`).join(', ')})`,
  );
  const anchor = (rate: number) =>
    `${rate.toFixed(0).padStart(8)}   ${(rate / ANCHOR_SETTLEMENTS_PER_SECOND).toFixed(2)}× anchor (${ANCHOR_SETTLEMENTS_PER_SECOND}/s target)`;
  console.log(`${'settlements per second, ledger writes included'.padEnd(52)} ${anchor(perSecond)}`);
  console.log(`${'settlements per CPU-second of this process'.padEnd(52)} ${anchor(ORDERS / cpuSeconds)}`);
  console.log(`${loadBefore} before, ${load()} after (1, 5, 15 min)`);
} finally {
  if (databaseUrl) await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db);
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
