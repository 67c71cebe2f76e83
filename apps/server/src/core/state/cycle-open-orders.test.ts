import { describe, expect, it } from 'vitest';
import { type DueInstant, OpenOrders } from './cycle-open-orders.ts';
import type { CycleOrderRecord as OrderRow } from './cycle-rules.ts';

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

const taken = (instants: readonly DueInstant[]) => instants.flatMap(({ orders }) => ids(orders));

describe('open cycle orders in memory', () => {
  it('takes the due orders earliest expiry first, grouped by instant, up to a limit', () => {
    const open = new OpenOrders();
    const late = order({ expires_at: 3000 });
    const early = order({ expires_at: 1000 });
    const middle = [order({ expires_at: 2000 }), order({ expires_at: 2000 })];
    const notYet = order({ expires_at: 9000 });
    for (const each of [late, early, ...middle, notYet]) open.add(each);
    expect(open.take(999, 'BTC', 10)).toEqual([]);
    const first = open.take(3000, 'BTC', 2);
    expect(first.map(({ coin, expiresAt }) => [coin, expiresAt])).toEqual([
      ['BTC', 1000],
      ['BTC', 2000],
    ]);
    expect(taken(first)).toEqual(ids([early, middle[0]!]));
    expect(open.size).toBe(3);
    expect(taken(open.take(3000, 'BTC', 10))).toEqual(ids([middle[1]!, late]));
    expect(open.take(3000, 'BTC', 10)).toEqual([]);
    expect(taken(open.take(9000, 'BTC', 10))).toEqual([notYet.orderid]);
    expect(open.size).toBe(0);
  });

  it('keeps coins apart and takes from every coin when none is named', () => {
    const open = new OpenOrders();
    const btc = order({ expires_at: 1000 });
    const eth = order({ expires_at: 1000, tradcoin: 'ETH' });
    open.add(btc);
    open.add(eth);
    expect(open.take(1000, 'SOL', 10)).toEqual([]);
    expect(taken(open.take(1000, 'ETH', 10))).toEqual([eth.orderid]);
    open.add(order({ expires_at: 1000, tradcoin: 'ETH' }));
    expect(open.take(1000, null, 10).map(({ coin }) => coin)).toEqual(['BTC', 'ETH']);
  });

  it('adds an order once, and to an instant partly or wholly taken', () => {
    const open = new OpenOrders();
    const first = order({ expires_at: 1000 });
    open.add(first);
    open.add(first);
    expect(open.size).toBe(1);
    expect(taken(open.take(1000, 'BTC', 10))).toEqual([first.orderid]);
    const again = order({ expires_at: 1000 });
    const later = order({ expires_at: 2000 });
    open.add(later);
    open.add(again);
    expect(taken(open.take(5000, 'BTC', 10))).toEqual([again.orderid, later.orderid]);
  });

  it("answers a user's open orders, of one pair or all, newest first, until they are taken", () => {
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
    open.take(500, 'BTC', 10);
    expect(ids(open.ofUser(1, 2))).toEqual([]);
    expect(open.ofUser(3, null)).toEqual([]);
  });

  it('is full at its bound', () => {
    const open = new OpenOrders(2);
    open.add(order({ expires_at: 1 }));
    expect(open.full).toBe(false);
    open.add(order({ expires_at: 2 }));
    expect(open.full).toBe(true);
    open.take(1, 'BTC', 1);
    expect(open.full).toBe(false);
  });
});
