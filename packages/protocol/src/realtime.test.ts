import { describe, expect, it } from 'vitest';
import { marketKey, parseSubscriptionKey, subscriptionKey } from './realtime.ts';

describe('subscription keys', () => {
  it('parses main coin, trade coin, kind and period', () => {
    expect(parseSubscriptionKey('USDT_BTC_trad_1')).toEqual({
      kind: 'trad',
      maincoin: 'USDT',
      tradcoin: 'BTC',
      mine: 1,
    });
    expect(parseSubscriptionKey(' usdt_eth_contract_10080 ')).toEqual({
      kind: 'contract',
      maincoin: 'USDT',
      tradcoin: 'ETH',
      mine: 10080,
    });
    expect(parseSubscriptionKey('USDT_SOL_cycle')).toEqual({
      kind: 'cycle',
      maincoin: 'USDT',
      tradcoin: 'SOL',
      mine: null,
    });
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      'ping',
      'BTC_USDT',
      'USDT_BTC_spot_1',
      'USDT_BTC_trad_7',
      'USDT_BTC_trad_1_2',
      'USDT_B-C_trad_1',
      'USDT__trad_1',
      'USDT_BTC_trad_01e1',
      `USDT_${'X'.repeat(21)}_trad_1`,
    ]) {
      expect(parseSubscriptionKey(text), text).toBeNull();
    }
  });

  it('builds the keys the pushes carry', () => {
    const market = { kind: 'trad', maincoin: 'USDT', tradcoin: 'BTC' } as const;
    expect(marketKey(market)).toBe('USDT_BTC_trad');
    expect(subscriptionKey({ ...market, mine: 15 })).toBe('USDT_BTC_trad_15');
    expect(subscriptionKey({ ...market, mine: null })).toBe('USDT_BTC_trad');
    const parsed = parseSubscriptionKey(subscriptionKey({ ...market, mine: 240 }));
    expect(parsed).toEqual({ ...market, mine: 240 });
  });
});
