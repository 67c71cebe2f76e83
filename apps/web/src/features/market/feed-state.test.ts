import type { ServerPush } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import { applyMarketPush, EMPTY_FEED } from './feed-state.ts';

const ticker = {
  maincoin: 'USDT',
  tradcoin: 'BTC',
  price: '10',
  rise: '1.5',
  high: '11',
  low: '9',
  volume: '3',
  ts: 1,
};

describe('market feed', () => {
  it('takes the ticker from the info push of any kind', () => {
    for (const type of ['info', 'coninfo', 'cycleinfo'] as const) {
      const push: ServerPush = { type, key: 'USDT_BTC_trad', ts: 1, data: ticker };
      expect(applyMarketPush(EMPTY_FEED, push).ticker).toEqual({
        price: '10',
        rise: '1.5',
        high: '11',
        low: '9',
        volume: '3',
      });
    }
  });

  it('replaces the book sides and the trades', () => {
    const level = [{ price: '1', amount: '2' }];
    const trade = [{ price: '1', amount: '2', type: 'buy' as const, wdate: 1 }];
    let feed = applyMarketPush(EMPTY_FEED, { type: 'buy', key: 'k', ts: 1, data: level });
    feed = applyMarketPush(feed, { type: 'sell', key: 'k', ts: 1, data: level });
    feed = applyMarketPush(feed, { type: 'contop', key: 'k', ts: 1, data: trade });
    expect(feed).toEqual({ ticker: null, buy: level, sell: level, top: trade });
  });

  it('ignores broadcasts', () => {
    expect(applyMarketPush(EMPTY_FEED, { type: 'overview', ts: 1, data: [] })).toBe(EMPTY_FEED);
  });
});
