/**
 * Ledger throughput on a SQLite file (WAL, synchronous=FULL: every commit is
 * on disk), as Halyard runs by default.
 *
 *   npx tsx bench/ledger.bench.ts
 *
 * Prints transfers per second for single transfers (one caller at a time, and
 * many callers at once, which the ledger group-commits) and for linked
 * four-leg batches (a trade), each with its ratio to the anchor, the
 * transfers per second of this process's CPU time (which other work on a
 * shared machine disturbs less), and the load average.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import { systemClock } from '../apps/server/src/clock.ts';
import {
  createLedger,
  type Ledger,
  systemAccount,
  type TransferInput,
  userAccount,
} from '../apps/server/src/ledger/index.ts';
import { openStore } from '../apps/server/src/store/connect.ts';

/** The anchor: a target figure for one SQLite file on 2 cores, not a measurement. */
const ANCHOR_TRANSFERS_PER_SECOND = 10_000;
const USERS = 100;
const amount = Dec.parse('0.01');

let counter = 0;
const id = (prefix: string) => `${prefix}-${++counter}`;

function single(): TransferInput[] {
  const from = 1 + (counter % USERS);
  const to = 1 + ((counter * 7 + 3) % USERS);
  return [
    {
      id: id('t'),
      debit: userAccount(from, 'spot'),
      credit: userAccount(to === from ? (to % USERS) + 1 : to, 'spot'),
      asset: 'USDT',
      amount,
      code: 'transfer',
    },
  ];
}

function trade(): TransferInput[] {
  const buyer = userAccount(1 + (counter % USERS), 'spot');
  const seller = userAccount(1 + ((counter + 1) % USERS), 'spot');
  const fees = systemAccount('fees');
  return [
    { id: id('q'), debit: buyer, credit: seller, asset: 'USDT', amount, code: 'trade' },
    { id: id('b'), debit: seller, credit: buyer, asset: 'BTC', amount, code: 'trade' },
    { id: id('f'), debit: seller, credit: fees, asset: 'USDT', amount: Dec.parse('0.0001'), code: 'fee' },
    { id: id('f'), debit: buyer, credit: fees, asset: 'BTC', amount: Dec.parse('0.0001'), code: 'fee' },
  ];
}

async function fund(ledger: Ledger): Promise<void> {
  const treasury = systemAccount('treasury');
  for (let user = 1; user <= USERS; user += 1) {
    await ledger.execute(
      ['USDT', 'BTC'].map((asset) => ({
        id: `fund-${asset}-${user}`,
        debit: treasury,
        credit: userAccount(user, 'spot'),
        asset,
        amount: Dec.parse('1000000'),
        code: 'demo',
      })),
    );
  }
}

/** Transfers per second of wall clock, and per second of this process's CPU time. */
interface Rates {
  wall: number;
  cpu: number;
}

/** Runs `batches` batches with `inFlight` callers at a time. */
async function measure(
  ledger: Ledger,
  make: () => TransferInput[],
  batches: number,
  inFlight: number,
): Promise<Rates> {
  let transfers = 0;
  let started = 0;
  const cpuBefore = process.cpuUsage();
  const begin = performance.now();
  async function caller(): Promise<void> {
    while (started < batches) {
      started += 1;
      const batch = make();
      transfers += batch.length;
      await ledger.execute(batch);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, caller));
  const cpu = process.cpuUsage(cpuBefore);
  return {
    wall: (transfers * 1000) / (performance.now() - begin),
    cpu: (transfers * 1e6) / (cpu.user + cpu.system),
  };
}

function report(name: string, { wall, cpu }: Rates): void {
  const ratio = wall / ANCHOR_TRANSFERS_PER_SECOND;
  console.log(
    `${name.padEnd(44)} ${wall.toFixed(0).padStart(8)} transfers/s   ${ratio.toFixed(2)}× anchor   (${cpu.toFixed(0)} per CPU-second)`,
  );
}

const load = (): string =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-ledger-bench-'));
const store = await openStore({ databaseUrl: null, sqliteFile: path.join(dir, 'bench.sqlite') });
try {
  const ledger = createLedger(store, systemClock);
  await fund(ledger);
  console.log(
    `ledger benchmark: SQLite file (WAL, synchronous=FULL), ${os.cpus().length} cores, node ${process.version}`,
  );
  console.log(
    `anchor: ${ANCHOR_TRANSFERS_PER_SECOND} transfers/s, a target figure for one SQLite file on 2 cores`,
  );
  console.log(`${load()} before`);
  report('single transfers, one caller', await measure(ledger, single, 2_000, 1));
  report('single transfers, 256 callers (group commit)', await measure(ledger, single, 20_000, 256));
  report('linked 4-leg trades, one caller', await measure(ledger, trade, 1_000, 1));
  report('linked 4-leg trades, 256 callers', await measure(ledger, trade, 5_000, 256));
  console.log(`${load()} after (1, 5, 15 min)`);
} finally {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
