import { Dec } from '@halyard/money';
import { type MarketRef, marketKey } from '@halyard/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prng } from '../core/state/command-stream.ts';
import * as futures from '../modules/futures/test-support.ts';
import { type Harness, MONEY_PATHS, startHarness } from '../modules/identity/test-support.ts';
import * as spot from '../modules/spot/test-support.ts';
import type { Publishable } from '../realtime/publisher.ts';
import { storedBars } from './test-support.ts';

/**
 * The K-lines through the whole server, on SQL (the aggregator on the
 * server's thread) and on the sequenced core (the projector's writer): the
 * same spot trades, futures trades and index ticks at the same times give
 * the same bars, tickers and pushes; and on the core, a chart read right
 * after a trade shows it while SQL still lags.
 */

const SEED = Number(process.env.KLINE_ON_CORE_SEED ?? 19_0318);
/** Just before an hour: the run crosses the 1-, 5-, 15-, 30- and 60-minute bars' boundaries. */
const START = Date.parse('2026-03-18T09:58:30Z');
const MARKETS: MarketRef[] = (['trad', 'contract', 'cycle'] as const).map((kind) => ({
  kind,
  tradcoin: 'BTC',
  maincoin: 'USDT',
}));

/** An index tick of every coin, handed to futures as its subscription does once started (its marks; on SQL its prints). */
async function tick(h: Harness): Promise<Dec> {
  const ticks = await h.app.market.simulator.tick();
  for (const each of ticks) await h.app.futures.service.onIndexTick(each);
  return ticks.find((each) => each.coin === 'BTC')!.price;
}

/**
 * A seeded run of index ticks, crossing spot orders (some left resting, so
 * that later ones trade at their price) and futures trades at the mark, the
 * clock moving between them by up to a minute and a half (sometimes not at
 * all: prints at equal times).
 */
async function run(h: Harness): Promise<void> {
  const random = prng(SEED);
  h.clock.set(START);
  const buyer = await spot.fundedUser(h, { USDT: '10000000' });
  const seller = await spot.fundedUser(h, { BTC: '100' });
  const long = await futures.futuresUser(h, '1000000');
  const short = await futures.futuresUser(h, '1000000');
  let index = await tick(h);
  for (let step = 0; step < 40; step++) {
    h.clock.advance(random(4) === 0 ? 0 : random(90_000));
    const roll = random(10);
    if (roll < 3) index = await tick(h);
    else if (roll < 7) {
      const price = index
        .mul(Dec.parse(`1.00${random(10)}`))
        .floorTo(2)
        .toString();
      const amount = `0.00${1 + random(9)}`;
      await spot.placed(spot.limit('buy', buyer, price, amount, h));
      await spot.placed(spot.limit('sell', seller, price, random(3) === 0 ? '0.001' : amount, h));
    } else {
      const lots = String(1 + random(5));
      await futures.placed(futures.order(h, short, 'sell', 'limit', lots, { price: index.toString() }));
      await futures.placed(futures.order(h, long, 'buy', 'market', lots));
    }
  }
}

describe('K-lines on SQL and on the sequenced core', () => {
  it(`give the same bars, tickers and pushes for the same trades and ticks (seed ${SEED})`, async () => {
    const seen: unknown[] = [];
    for (const { moneyCore } of MONEY_PATHS) {
      const h = await startHarness({ moneyCore });
      try {
        const pushes: Publishable[] = [];
        vi.spyOn(h.app.realtime, 'publish').mockImplementation((push) => void pushes.push(push));
        await run(h);
        await h.app.market.data.flush();
        const bars = await storedBars(h.store.db);
        // The newest 1-minute bar of each market, as pushed last and as stored.
        const pushed = MARKETS.map((market) => {
          const key = `${marketKey(market)}_1`;
          const last = pushes.findLast((push) => push.type === 'kline' && 'key' in push && push.key === key);
          return (last?.data as { series: string[] } | undefined)?.series.at(-1);
        });
        const newest = MARKETS.map((market) =>
          bars
            .findLast((line) => line.startsWith(`${market.kind}|BTC/USDT|1|`))
            ?.split('|')
            .slice(3, 9)
            .join('|'),
        );
        expect(pushed).toEqual(newest);
        seen.push({ bars, tickers: MARKETS.map((market) => h.app.market.data.ticker(market)) });
      } finally {
        await h.close();
      }
    }
    const [onSql, onCore] = seen as [{ bars: string[] }, { bars: string[] }];
    // Eight periods of three markets, over more than one bar each.
    expect(onSql.bars.length).toBeGreaterThan(3 * 8 * 2);
    expect(onCore).toEqual(onSql);
  }, 120_000);
});

describe('K-lines on the sequenced core', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({ moneyCore: true });
  });

  afterEach(async () => {
    await h.close();
  });

  it('a chart read right after a trade shows it, while SQL still lags', async () => {
    const core = h.app.moneyCore!;
    const buyer = await spot.fundedUser(h, { USDT: '1000' });
    const seller = await spot.fundedUser(h, { BTC: '1' });
    const { answered } = await core.projector.holdAt(core.sequencer.lastSequence(), 10_000, async () => {
      await spot.placed(spot.limit('buy', buyer, '100', '1', h));
      await spot.placed(spot.limit('sell', seller, '100', '0.4', h));
      // The read starts with the trade not in SQL; the hold ends once it waits for SQL.
      const readable = core.readable.bind(core);
      const waiting = new Promise<void>((resolve) =>
        vi.spyOn(core, 'readable').mockImplementation((seq) => {
          resolve();
          return readable(seq);
        }),
      );
      const answered = spot.get(h, '/trad/kline?pairname=BTC/USDT&mine=1&count=1');
      await Promise.race([waiting, answered]);
      return { answered };
    });
    const { series } = (await spot.expectOk(answered)).data as { series: string[] };
    expect(series).toHaveLength(1);
    expect(series[0]).toMatch(/\|100\|100\|100\|100\|0\.4$/);
  });
});
