// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { futuresSession } from '../futures/session.ts';
import { readSelectedPair } from '../spot/api.ts';
import { readTradePair, storeTradePair } from './trade-pair.ts';

const BTC = { tradcoin: 'BTC', maincoin: 'USDT' };

beforeEach(() => sessionStorage.clear());

describe('the pair each trade screen opens on', () => {
  it('is the one stored for its market, which the spot and futures screens read', () => {
    storeTradePair('spot', { tradcoin: 'SOL', maincoin: 'USDT' });
    storeTradePair('futures', { tradcoin: 'ETH', maincoin: 'USDT' });
    expect(readSelectedPair()).toEqual({ tradcoin: 'SOL', maincoin: 'USDT' });
    expect(futuresSession.pair(BTC)).toEqual({ tradcoin: 'ETH', maincoin: 'USDT' });
  });

  it('keeps only the pair (not a row’s price) and falls back on nothing or garbage', () => {
    storeTradePair('spot', { tradcoin: 'SOL', maincoin: 'USDT', price: '1' } as never);
    expect(JSON.parse(sessionStorage.getItem('selectedCoin') ?? '')).toEqual({
      tradcoin: 'SOL',
      maincoin: 'USDT',
    });
    expect(readTradePair('futures', BTC)).toEqual(BTC);
    for (const garbage of ['{', 'null', '"SOL"', '{"tradcoin":"SOL"}', '{"tradcoin":1,"maincoin":"USDT"}']) {
      sessionStorage.setItem('futuresPair', garbage);
      expect(readTradePair('futures', BTC)).toEqual(BTC);
    }
  });
});
