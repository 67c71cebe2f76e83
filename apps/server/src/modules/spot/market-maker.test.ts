import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gridStep, LEVELS_PER_SIDE, ladder } from './market-maker.ts';
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

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await h.app.spot.service.idle();
  await expectAuditClean(h);
  await h.close();
});

async function step(): Promise<void> {
  h.clock.advance(1000);
  await h.app.market.simulator.tick();
  await h.app.spot.marketMaker.requoteAll();
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

describe('market maker', () => {
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
