import path from 'node:path';
import { TEST_PAIRS } from '../core/state/command-stream.ts';
import { insertPair as insertCyclePair } from '../modules/cycle/store.ts';
import { insertPair as insertSpotPair } from '../modules/spot/store.ts';
import { createTestSchema, dropTestSchema, openPostgres, openStore, type Store } from '../store/connect.ts';
import type { Executor } from '../store/database.ts';
import type { WorkerStore } from './worker-transport.ts';

/**
 * A database another thread or process opens too (a projector's worker, a
 * child killed by a test): a SQLite file in `dir`, or a fresh PostgreSQL
 * schema on TEST_DATABASE_URL. `arg` names it on a child's command line
 * (the file, or `postgres:<schema>`).
 */
export interface SharedTestDatabase {
  arg: string;
  where: WorkerStore;
  open(): Promise<Store>;
  drop(): Promise<void>;
}

export async function sharedTestDatabase(dir: string): Promise<SharedTestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const file = path.join(dir, 'halyard.sqlite');
    return {
      arg: file,
      where: { sqliteFile: file },
      open: () => openStore({ databaseUrl: null, sqliteFile: file }),
      drop: async () => undefined,
    };
  }
  const schema = await createTestSchema(url);
  return {
    arg: `postgres:${schema}`,
    where: { postgresUrl: url, schema },
    open: async () => openPostgres(url, schema),
    drop: () => dropTestSchema(url, schema),
  };
}

/** The spot pairs (TEST_PAIRS) and cycle pairs (BTC, ETH) the seeded command stream trades, as a deployment lists them. */
export async function insertStreamMarkets(db: Executor): Promise<void> {
  for (const [sort, pair] of TEST_PAIRS.entries())
    await insertSpotPair(db, {
      tradcoin: pair.tradcoin,
      maincoin: pair.maincoin,
      price_accuracy: pair.priceAccuracy,
      amount_accuracy: pair.amountAccuracy,
      minnumber: pair.minNumber,
      maxnumber: pair.maxNumber,
      state: 1,
      plate: 0,
      unit: pair.tradcoin,
      maker_fee: pair.makerFee,
      taker_fee: pair.takerFee,
      introduction: '',
      sort,
    });
  for (const [sort, tradcoin] of ['BTC', 'ETH'].entries())
    await insertCyclePair(db, { tradcoin, maincoin: 'USDT', price_accuracy: 2, paycoins: 'USDT', sort }, [
      { seconds: 1, minnumber: '1', maxnumber: '500', profit_gas: '0.85', loss_gas: '0.9', gas: '0.02' },
    ]);
}
