import { describe, expect, it } from 'vitest';
import { topRow } from './service.ts';
import type { OrderRow, SettlementRow } from './store.ts';

const order: OrderRow = {
  orderid: 7,
  user_id: 1,
  pair_id: 1,
  tradcoin: 'BTC',
  maincoin: 'USDT',
  paycoin: 'USDT',
  type: 'buy',
  number: '100',
  seconds: 30,
  profit_gas: '0.8',
  loss_gas: '1',
  gas: '0.02',
  open_price: '60000',
  open_ts: 1_000,
  open_source: 'sim',
  wdate: 1_000,
  expires_at: 31_000,
};

function settled(result: SettlementRow['result'], lastProfit: string): SettlementRow {
  return {
    orderid: 7,
    result,
    last_profit: lastProfit,
    fee: result === 'win' ? '1.6' : '0',
    close_price: '60001',
    close_ts: 31_000,
    close_source: 'sim',
    settled_at: 31_500,
    void_tolerance_ms: null,
  };
}

describe('top orders', () => {
  it("show a win's income after fee, and no income for a loss or a draw", () => {
    expect(topRow({ order, settlement: settled('win', '78.4') })).toEqual({
      wdate: 31_500,
      type: 'buy',
      income: '78.4',
      last_profit: '78.4',
    });
    expect(topRow({ order, settlement: settled('loss', '-100') })).toMatchObject({
      income: '0',
      last_profit: '-100',
    });
    expect(topRow({ order, settlement: settled('draw', '0') })).toMatchObject({
      income: '0',
      last_profit: '0',
    });
  });
});
