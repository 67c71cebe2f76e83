/**
 * K-line aggregation throughput: trades folded into the bars of all eight
 * periods (1 min … 1 week) and written to a SQLite file (WAL,
 * synchronous=FULL), as Halyard runs by default.
 *
 *   npx tsx bench/kline.bench.ts
 *
 * Prints trades per second for the in-memory fold alone and for the fold
 * with its flushes (one transaction per flush, one row write per bar), each
 * with its ratio to the anchor.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import { KlineAggregator, type Print } from '../apps/server/src/market/kline.ts';
import { openStore } from '../apps/server/src/store/connect.ts';

/** The anchor: a target figure (one busy exchange's peak trade rate on one core), not a measurement. */
const ANCHOR_TRADES_PER_SECOND = 100_000;
const TRADES = 200_000;
const PAIRS = 10;
/** Trades per flush: a busy market's 100 ms flush window. */
const TRADES_PER_FLUSH = 2_000;
/** Simulated time between trades: 200,000 trades span about 2.8 hours, so bars keep rolling over. */
const TRADE_SPACING_MS = 50;

function trades(): Array<{ pair: string; print: Print }> {
  const start = Date.UTC(2026, 2, 16);
  return Array.from({ length: TRADES }, (_, index) => ({
    pair: `C${index % PAIRS}/USDT`,
    print: {
      price: Dec.parse(`${96_000 + (index % 977)}.${index % 100}`),
      amount: Dec.parse(`0.${(index % 9_999) + 1}`),
      ts: start + index * TRADE_SPACING_MS,
    },
  }));
}

function report(label: string, count: number, elapsedMs: number): void {
  const perSecond = Math.round((count / elapsedMs) * 1000);
  const ratio = (perSecond / ANCHOR_TRADES_PER_SECOND).toFixed(2);
  console.log(
    `${label}: ${perSecond.toLocaleString('en')} trades/s (${ratio}× the anchor of 100,000 trades/s)`,
  );
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-kline-bench-'));
  const store = await openStore({ databaseUrl: null, sqliteFile: path.join(dir, 'bench.sqlite') });
  const input = trades();
  try {
    let written = 0;
    const aggregator = new KlineAggregator({
      db: store.db,
      flushDelayMs: 3_600_000,
      maxPendingCandles: Number.MAX_SAFE_INTEGER,
      onFlushed: (bars) => {
        written += bars.length;
      },
      onError: (error) => {
        throw error;
      },
    });

    // In memory only: the fold into eight periods, no flush.
    const memoryOnly = new KlineAggregator({
      db: store.db,
      flushDelayMs: 3_600_000,
      maxPendingCandles: Number.MAX_SAFE_INTEGER,
      onFlushed: () => {},
      onError: (error) => {
        throw error;
      },
    });
    let started = performance.now();
    for (const { pair, print } of input) memoryOnly.record('trad', pair, print);
    report('fold into 8 periods (memory)', TRADES, performance.now() - started);

    started = performance.now();
    for (let index = 0; index < input.length; index += 1) {
      const trade = input[index];
      if (trade) aggregator.record('contract', trade.pair, trade.print);
      if ((index + 1) % TRADES_PER_FLUSH === 0) await aggregator.flush();
    }
    await aggregator.flush();
    const elapsed = performance.now() - started;
    report(`fold + flush every ${TRADES_PER_FLUSH} trades (SQLite file)`, TRADES, elapsed);
    console.log(
      `  ${written.toLocaleString('en')} bar writes in ${Math.ceil(TRADES / TRADES_PER_FLUSH)} transactions`,
    );
    await aggregator.close();
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
