import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gridStep, LEVELS_PER_SIDE, ladder, MarketMaker } from './market-maker.ts';
import { type CrossTrend, crossTrend } from './quoting.ts';
import {
  expectAuditClean,
  expectOk,
  fundedUser,
  get,
  type Harness,
  placed,
  post,
  startHarness,
} from './test-support.ts';

interface Book {
  buy: { price: string }[];
  sell: { price: string }[];
  top: unknown[];
}

let h: Harness;

/**
 * The house's market maker on BTC/USDT alone: the same quoting and crossing
 * code, without requoting the other eight demo pairs on every tick (nine
 * times the store writes, most of the 8-minute test's time).
 */
class BtcMarketMaker extends MarketMaker {
  protected override markets() {
    return super.markets().filter(([, market]) => market.pair.tradcoin === 'BTC');
  }
}

async function step(maker: MarketMaker = h.app.spot.marketMaker): Promise<void> {
  h.clock.advance(1000);
  await h.app.market.simulator.tick();
  await maker.requoteAll();
}

async function bookOf(tradcoin: string): Promise<Book> {
  return (await expectOk(get(h, `/trad/trad?tradcoin=${tradcoin}&maincoin=USDT`))).data as Book;
}

describe('ladder', () => {
  it('puts levels one grid step apart on both sides of the index, never crossing it', () => {
    const quotes = ladder(Dec.parse('96500'), 2, 5, Dec.parse('0.0001'));
    const bids = quotes.filter((quote) => quote.side === 'buy').map((quote) => quote.price.toString());
    const asks = quotes.filter((quote) => quote.side === 'sell').map((quote) => quote.price.toString());
    // Gap: 96500 × 0.0005 = 48.25, so the grid is 20; bids from 96451.75 down, asks from 96548.25 up.
    expect(bids.slice(0, 3)).toEqual(['96440', '96420', '96400']);
    expect(asks.slice(0, 3)).toEqual(['96560', '96580', '96600']);
    expect(bids).toHaveLength(LEVELS_PER_SIDE);
    expect(asks).toHaveLength(LEVELS_PER_SIDE);
  });
});

describe('grid step', () => {
  it('is the largest 1-2-5 multiple of the price step within the target', () => {
    expect(gridStep(Dec.parse('48.25'), 2).toString()).toBe('20');
    expect(gridStep(Dec.parse('0.00016'), 5).toString()).toBe('0.0001');
    expect(gridStep(Dec.parse('0.000001'), 4).toString()).toBe('0.0001');
    expect(gridStep(Dec.parse('1.7'), 2).toString()).toBe('1');
  });
});

describe('cross trend', () => {
  it('buys while the index rises and sells while it falls, turning a whole spread off the extreme', () => {
    // Spread 1: the house turns to selling below (peak − 1) and to buying above (trough + 1).
    const path = ['100', '101', '100.5', '100', '99.9', '100.5', '100.9', '101.1', '101'];
    const sides: string[] = [];
    let trend: CrossTrend | undefined;
    for (const text of path) {
      trend = crossTrend(Dec.parse(text), trend, Dec.ONE);
      sides.push(trend.side);
    }
    // Peak 101 → sells from 99.9 (below 100); trough 99.9 → buys from 101.1 (above 100.9).
    expect(sides).toEqual(['buy', 'buy', 'buy', 'buy', 'sell', 'sell', 'sell', 'buy', 'buy']);
    expect(trend?.extreme.toString()).toBe('101.1');
  });
});

describe('market maker', () => {
  beforeEach(async () => {
    h = await startHarness();
  });

  afterEach(async () => {
    await h.app.spot.service.idle();
    await expectAuditClean(h);
    await h.close();
  });

  it("prints trades whose minute bars rise and fall with the index, each opening near the last one's close", async () => {
    const btc = { tradcoin: 'BTC', maincoin: 'USDT' };
    // Eight whole minutes of ticks, from a minute boundary.
    h.clock.set(Math.ceil(h.clock.now() / 60_000) * 60_000 - 1000);
    const errors: unknown[] = [];
    const maker = new BtcMarketMaker({
      spot: h.app.spot.service,
      index: h.app.market.index,
      onError: (error) => errors.push(error),
    });
    for (let second = 0; second < 8 * 60; second += 1) await step(maker);
    expect(errors).toEqual([]);
    await h.app.spot.service.idle();
    await h.app.market.data.flush();
    const bars = async (kind: 'trad' | 'cycle') =>
      ((await h.app.market.data.series({ kind, ...btc }, 1, 8, Number.MAX_SAFE_INTEGER)) as string[]).map(
        (row) => row.split('|').slice(1, 5).map(Number),
      );
    const [spot, index] = [await bars('trad'), await bars('cycle')];
    expect(spot).toHaveLength(8);
    const direction = ([open, , , close]: number[]) => Math.sign(close! - open!);
    // The cycle market's bars are the index's own: the spot bar goes the index's way in most minutes.
    const agreeing = spot.filter((bar, minute) => direction(bar) === direction(index[minute]!)).length;
    expect(agreeing).toBeGreaterThanOrEqual(6);
    expect(new Set(spot.map(direction)).size).toBeGreaterThan(1);
    // No bar opens a whole spread (0.1 %) away from the close before it on the same side every time.
    const gaps = spot.slice(1).map(([open], minute) => Math.sign(open! - spot[minute]![3]!));
    expect(gaps.every((gap) => gap === gaps[0])).toBe(false);
  }, 120_000);

  it('quotes at least 20 levels each side on every demo pair through the ledger', async () => {
    await step();
    for (const coin of ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'TRX', 'LTC', 'HAL']) {
      const book = await bookOf(coin);
      expect(book.buy.length, coin).toBe(20);
      expect(book.sell.length, coin).toBe(20);
      expect(Dec.parse(book.buy[0]!.price).lt(Dec.parse(book.sell[0]!.price)), coin).toBe(true);
    }
    const locked = await h.app.ledger.balance({ owner: 'system', wallet: 'market_maker', asset: 'USDT' });
    expect(locked.locked.isPositive()).toBe(true);
  });

  it('re-quotes only what moved, keeps the book full and prints trades', async () => {
    await step();
    const market = h.app.spot.service.market({ tradcoin: 'BTC', maincoin: 'USDT' });
    const first = new Set(market.openOrdersOf('house').map((row) => row.autoid));
    for (let tick = 0; tick < 9; tick++) await step();
    const kept = market.openOrdersOf('house').filter((row) => first.has(row.autoid));
    // A one-second move is a few grid steps at most: most levels stay where they were.
    expect(kept.length).toBeGreaterThan(LEVELS_PER_SIDE);
    const book = await bookOf('BTC');
    expect(book.buy.length).toBe(20);
    expect(book.sell.length).toBe(20);
    expect(book.top.length).toBeGreaterThan(0);
  });

  it('fills a user market order against its quotes', async () => {
    await step();
    const user = await fundedUser(h, { USDT: '100000' });
    const order = await placed(
      post(h, '/trad/buyMarket', { tradcoin: 'ETH', maincoin: 'USDT', number: '0.5' }, user.token),
    );
    expect(order.state).toBe('filled');
    expect(order.deal_amount).toBe('0.5');
  });
});
