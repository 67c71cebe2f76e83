/**
 * A demo install's first start (issue 14): what main.ts does before it
 * listens, on a fresh SQLite file (WAL, synchronous=FULL, as Halyard runs by
 * default): migrations, createApp with the demo seeds, then the demo history
 * of every demo market (market/history.ts). Prints each step's time, the
 * history's share and the total's ratio to the target, with the machine's load.
 *
 *   npx tsx bench/demo-history.bench.ts [runs]
 *
 * Target: the first start stays under 10 s on the 2-core machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { demoHistoryMarkets } from '../apps/server/src/demo-history.ts';
import { openStore } from '../apps/server/src/store/connect.ts';

const TARGET_MS = 10_000;
const RUNS = Number(process.argv[2] ?? 3);

async function firstStart(): Promise<{ app: number; history: number; markets: number; bars: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-bench-history-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', HALYARD_DATA_DIR: dataDir });
  try {
    const started = performance.now();
    const store = await openStore(config);
    const app = await createApp({ config, store });
    const created = performance.now();
    const markets = await app.market.seedDemoHistory(demoHistoryMarkets(app, config.priceTickMs));
    const seeded = performance.now();
    const { count } = await store.db
      .selectFrom('klines')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    await app.close();
    await store.close();
    return { app: created - started, history: seeded - created, markets, bars: Number(count) };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
for (let run = 1; run <= RUNS; run += 1) {
  const { app, history, markets, bars } = await firstStart();
  const total = app + history;
  console.log(
    `run ${run}: first start ${seconds(total)} (app ${seconds(app)}, history ${seconds(history)}: ` +
      `${markets} markets, ${bars} bars) = ${(total / TARGET_MS).toFixed(2)} × the 10 s target; ` +
      `load ${os.loadavg()[0]?.toFixed(2)}`,
  );
}
