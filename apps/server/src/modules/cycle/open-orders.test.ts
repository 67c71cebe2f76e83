import { describe, expect, it } from 'vitest';
import { OpenOrders } from './open-orders.ts';
import type { OrderRow } from './store.ts';

let nextId = 1;
function order(fields: Partial<OrderRow> & Pick<OrderRow, 'expires_at'>): OrderRow {
  return {
    orderid: nextId++,
    user_id: 1,
    pair_id: 1,
    tradcoin: 'BTC',
    maincoin: 'USDT',
    paycoin: 'USDT',
    type: 'buy',
    number: '10',
    seconds: 30,
    profit_gas: '0.8',
    loss_gas: '1',
    gas: '0.02',
    open_price: '100',
    open_ts: 0,
    open_source: 'test',
    wdate: 0,
    ...fields,
  };
}
const ids = (orders: readonly OrderRow[]) => orders.map(({ orderid }) => orderid);

describe('open cycle orders in memory', () => {
  it('answers the due orders earliest expiry first, up to a limit, without removing them', () => {
    const open = new OpenOrders();
    const late = order({ expires_at: 3000 });
    const early = order({ expires_at: 1000 });
    const middle = [order({ expires_at: 2000 }), order({ expires_at: 2000 })];
    const notYet = order({ expires_at: 9000 });
    for (const each of [late, early, ...middle, notYet]) open.add(each);
    expect(ids(open.due(3000, 'BTC', 10))).toEqual(ids([early, ...middle, late]));
    expect(ids(open.due(2000, 'BTC', 2))).toEqual(ids([early, middle[0]!]));
    expect(open.due(999, 'BTC', 10)).toEqual([]);
    expect(open.size).toBe(5);
  });

  it('keeps coins apart and answers every coin when none is named', () => {
    const open = new OpenOrders();
    const btc = order({ expires_at: 1000 });
    const eth = order({ expires_at: 1000, tradcoin: 'ETH' });
    open.add(btc);
    open.add(eth);
    expect(ids(open.due(1000, 'ETH', 10))).toEqual([eth.orderid]);
    expect(ids(open.due(1000, null, 10)).sort()).toEqual([btc.orderid, eth.orderid].sort());
    expect(open.due(1000, 'SOL', 10)).toEqual([]);
  });

  it('forgets removed orders, and an instant emptied and used again', () => {
    const open = new OpenOrders();
    const first = order({ expires_at: 1000 });
    const second = order({ expires_at: 2000 });
    open.add(first);
    open.add(second);
    open.remove(first);
    open.remove(first);
    expect(open.size).toBe(1);
    expect(ids(open.due(5000, 'BTC', 10))).toEqual([second.orderid]);
    const again = order({ expires_at: 1000 });
    open.add(again);
    open.add(again);
    expect(open.size).toBe(2);
    expect(ids(open.due(5000, 'BTC', 10))).toEqual([again.orderid, second.orderid]);
  });

  it("answers a user's open orders, of one pair or all, newest first", () => {
    const open = new OpenOrders();
    const mine = [
      order({ expires_at: 1000 }),
      order({ expires_at: 500, pair_id: 2 }),
      order({ expires_at: 900 }),
    ];
    open.add(order({ expires_at: 1000, user_id: 2 }));
    for (const each of mine) open.add(each);
    expect(ids(open.ofUser(1, null))).toEqual(ids(mine).reverse());
    expect(ids(open.ofUser(1, 1))).toEqual([mine[2]!.orderid, mine[0]!.orderid]);
    open.remove(mine[1]!);
    expect(ids(open.ofUser(1, 2))).toEqual([]);
    expect(open.ofUser(3, null)).toEqual([]);
  });

  it('is full at its bound', () => {
    const open = new OpenOrders(2);
    open.add(order({ expires_at: 1 }));
    expect(open.full).toBe(false);
    open.add(order({ expires_at: 2 }));
    expect(open.full).toBe(true);
  });
});
