import { Dec } from '@halyard/money';
import type { MarketKind } from '@halyard/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Published } from '../core/sequencer/index.ts';
import { prng } from '../core/state/command-stream.ts';
import type { MoneyEvent } from '../core/state/index.ts';
import { demoContractRows } from '../modules/futures/contracts.ts';
import { insertMissingContracts, selectContracts } from '../modules/futures/store.ts';
import { Projector } from '../projection/projector.ts';
import type { ProjectionWriter } from '../projection/writer.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { INDEX_QUOTE } from './index-price.ts';
import { bucketStart, KlineAggregator, newCandle, type Print } from './kline.ts';
import { klineProjectionWriter } from './kline-writer.ts';
import { upsertCandles } from './store.ts';
import { storedBars } from './test-support.ts';

/**
 * The projector's K-line writer against the SQL path's aggregator: the
 * prints of the events the money state publishes (spot trades, futures
 * trades, index prices), written by the projector in batches, give the bars
 * the aggregator builds from the same prints recorded as the SQL path's
 * modules record them. Some transactions fail after the bars are written
 * (a crash before the commit): the projector rolls the batch back and writes
 * it again, and no print may count twice.
 */

const SEED = Number(process.env.KLINE_WRITER_SEED ?? 20_260_318);
/** A Saturday: the prints' range crosses a week's boundary. */
const BASE = Date.parse('2026-03-14T00:00:00Z');
const SPOT_PAIRS = ['ALFA/USDT', 'BETA/USDT'];
/** BTC and ETH have demo contracts; XRP only its cycle market here. */
const INDEX_COINS = ['BTC', 'ETH', 'XRP'];

interface Contract {
  id: number;
  pair: string;
  tradcoin: string;
  maincoin: string;
  unit: Dec;
}

interface ExpectedPrint {
  kind: MarketKind;
  pair: string;
  print: Print;
}

/**
 * One seeded stream of events, and the prints the SQL path's modules record
 * for them: spot's service (a trade on its pair), futures' (a trade's lots
 * times the contract's unit) and the index's subscribers (a tick on the
 * coin's cycle market and on each of its contracts in the index's quote).
 */
function stream(random: (below: number) => number, count: number, contracts: readonly Contract[]) {
  const published: Published<MoneyEvent>[] = [];
  const prints: ExpectedPrint[] = [];
  const price = () => Dec.parse(`${1 + random(5_000)}.${random(100)}`);
  // Coarse steps over about four days: equal times (ties for open and close), and prints out of order.
  const at = () => BASE + random(2_000) * 173_000;
  for (let seq = 1; seq <= count; seq++) {
    const events: MoneyEvent[] = [];
    const roll = random(10);
    if (roll < 4) {
      const trade = { pair: SPOT_PAIRS[random(2)]!, price: price(), amount: price(), at: at() };
      events.push({ type: 'spotTrade', trade: spotTrade(trade.pair, trade.price, trade.amount, trade.at) });
      prints.push({
        kind: 'trad',
        pair: trade.pair,
        print: { price: trade.price, amount: trade.amount, ts: trade.at },
      });
    } else if (roll < 7) {
      const trades = Array.from({ length: 1 + random(3) }, () => ({
        contract: contracts[random(contracts.length)]!,
        price: price(),
        lots: Dec.fromInt(1 + random(50)),
        at: at(),
      }));
      events.push(
        futuresTrades(trades.map(({ contract, price, lots, at }) => [contract.id, price, lots, at])),
      );
      for (const trade of trades)
        prints.push({
          kind: 'contract',
          pair: trade.contract.pair,
          print: { price: trade.price, amount: trade.lots.mul(trade.contract.unit), ts: trade.at },
        });
    } else if (roll < 9) {
      const tick = {
        at: at(),
        prices: INDEX_COINS.filter(() => random(2) === 0).map((coin) => [coin, price()] as const),
      };
      events.push({
        type: 'indexPrices',
        at: tick.at,
        prices: tick.prices.map(([coin, p]) => [coin, p.toString()]),
      });
      for (const [coin, p] of tick.prices) {
        const print = { price: p, amount: Dec.ZERO, ts: tick.at };
        prints.push({ kind: 'cycle', pair: `${coin}/${INDEX_QUOTE}`, print });
        for (const contract of contracts)
          if (contract.tradcoin === coin && contract.maincoin === INDEX_QUOTE)
            prints.push({ kind: 'contract', pair: contract.pair, print });
      }
    } else if (random(2) === 0) {
      // An event that moves no chart; or (below) a sequence that published nothing.
      events.push({ type: 'transfers', transfers: [] });
    }
    published.push({ seq, events });
  }
  return { published, prints };
}

function spotTrade(pair: string, price: Dec, amount: Dec, at: number) {
  return {
    pair,
    tradeId: `spot:t${at}`,
    makerOrderId: 1,
    takerOrderId: 2,
    takerSide: 'buy' as const,
    price: price.toString(),
    amount: amount.toString(),
    quoteAmount: price.mul(amount).toString(),
    buyerFee: '0',
    sellerFee: '0',
    buyerFeeCoin: 'ALFA',
    sellerFeeCoin: 'USDT',
    at,
  };
}

function futuresTrades(trades: readonly (readonly [number, Dec, Dec, number])[]): MoneyEvent {
  return {
    type: 'futures',
    contract: null,
    orders: [],
    positions: [],
    triggers: [],
    trades: trades.map(([contractId, price, lots, at]) => ({
      contract_id: contractId,
      maker_order_id: 1,
      taker_order_id: 2,
      taker_side: 'buy' as const,
      price: price.toString(),
      number: lots.toString(),
      wdate: at,
    })),
    funding: [],
  };
}

describe('the K-line writer', () => {
  let projected: Store;
  let aggregated: Store;

  beforeEach(async () => {
    projected = await openTestStore();
    aggregated = await openTestStore();
  });

  afterEach(async () => {
    await projected.close();
    await aggregated.close();
  });

  it(`writes the bars the aggregator builds from the same prints, each print once across failed transactions (seed ${SEED})`, async () => {
    const random = prng(SEED);
    await insertMissingContracts(projected.db, demoContractRows(INDEX_QUOTE));
    const contracts = (await selectContracts(projected.db))
      .filter((row) => row.tradcoin !== 'XRP')
      .map((row) => ({
        id: row.autoid,
        pair: `${row.tradcoin}/${row.maincoin}`,
        ...row,
        unit: Dec.parse(row.unit),
      }));
    const { published, prints } = stream(random, 600, contracts);

    // History both sides hold before the stream (seeded bars): the first prints merge into it.
    const history = prints
      .slice(0, 10)
      .map(({ kind, pair, print }) =>
        newCandle({ kind, pair, period: 60 }, bucketStart(print.ts, 60), print),
      );
    await upsertCandles(projected.db, history);
    await upsertCandles(aggregated.db, history);

    let crashes = 0;
    const bars = klineProjectionWriter();
    const crashing: ProjectionWriter<MoneyEvent> = {
      name: 'klines-under-test',
      async write(trx, batch) {
        await bars.write(trx, batch);
        if (random(3) === 0) {
          crashes += 1;
          throw new Error('crashed after writing the bars, before the commit');
        }
      },
    };
    const projector = await Projector.open({
      db: projected.db,
      writer: crashing,
      batchMax: 1 + random(12),
      retryMs: 1,
      onError: () => {},
    });
    for (let from = 0; from < published.length; ) {
      const chunk = published.slice(from, from + 1 + random(40));
      projector.accept(chunk, chunk.at(-1)!.seq);
      from += chunk.length;
    }
    await projector.waitFor(published.length, 60_000);
    await projector.close();

    const aggregator = new KlineAggregator({
      db: aggregated.db,
      flushDelayMs: 60_000,
      onFlushed: () => {},
      onError: (error) => {
        throw error;
      },
    });
    for (const { kind, pair, print } of prints) {
      aggregator.record(kind, pair, print);
      if (random(20) === 0) await aggregator.flush();
    }
    await aggregator.close();

    expect(crashes).toBeGreaterThan(10);
    const expected = await storedBars(aggregated.db);
    expect(expected.length).toBeGreaterThan(500);
    expect(await storedBars(projected.db)).toEqual(expected);
  }, 120_000);
});
