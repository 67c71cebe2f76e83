import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../ledger/index.ts';
import { type GroupEffects, PairMarket, type PlaceOrder } from './pair-market.ts';
import { expectAuditClean, fund, type Harness, startHarness } from './test-support.ts';
import { userTrader } from './trader.ts';

let h: Harness;
let transactions: number;
/** The number of the transaction to fail after its work ran; 0 for none. */
let failTransaction: number;
let committed: GroupEffects[];

/** The app's ledger, counting transactions and failing one on demand after its work ran. */
function instrumentedLedger(real: Ledger): Ledger {
  return {
    ...real,
    transaction(work) {
      transactions += 1;
      const failing = transactions === failTransaction;
      return real.transaction(async (trx) => {
        const result = await work(trx);
        if (failing) throw new Error('disk full');
        return result;
      });
    },
  };
}

async function openMarket(): Promise<PairMarket> {
  const { pair } = h.app.spot.service.market({ tradcoin: 'BTC', maincoin: 'USDT' });
  const market = new PairMarket({
    pair,
    db: h.store.db,
    ledger: instrumentedLedger(h.app.ledger),
    now: () => h.clock.now(),
    indexPrice: () => null,
    referral: h.app.referral.service.fees,
    onCommitted: (effects) => committed.push(effects),
    onError: (error) => {
      throw error;
    },
  });
  await market.restore();
  return market;
}

const BUYER = 9001;
const SELLER = 9002;

function order(userId: number, side: 'buy' | 'sell', price: string, amount: string): PlaceOrder {
  return {
    kind: 'place',
    trader: userTrader(userId),
    email: 'x@example.com',
    side,
    style: 'limit',
    price,
    amount,
  };
}

beforeEach(async () => {
  h = await startHarness();
  transactions = 0;
  failTransaction = 0;
  committed = [];
  await fund(h, BUYER, { USDT: '100000' });
  await fund(h, SELLER, { BTC: '100' });
});

afterEach(async () => {
  await expectAuditClean(h);
  await h.close();
});

describe('group commit', () => {
  it('commits queued orders together and answers each after its commit', async () => {
    const market = await openMarket();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => market.submit(order(BUYER, 'buy', String(100 + index), '1'))),
    );
    expect(results.map((result) => result.orders[0]!.state)).toEqual(Array(10).fill('unfilled'));
    // Submitted in one turn of the event loop, they share one transaction.
    expect(transactions).toBe(1);
    expect(committed).toHaveLength(1);
    expect(market.depth().bids).toHaveLength(10);
  });

  it('fails a refused order alone and commits the rest of its group', async () => {
    const market = await openMarket();
    const outcomes = await Promise.allSettled([
      market.submit(order(BUYER, 'buy', '100', '1')),
      market.submit(order(BUYER, 'buy', '100', '5000')),
      market.submit(order(BUYER, 'buy', '99', '1')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(market.depth().bids.map((level) => level.price.toString())).toEqual(['100', '99']);
  });
});

describe('a rolled-back group', () => {
  it('fails every command in it and leaves no trace in the book, the store or the ledger', async () => {
    const market = await openMarket();
    await market.submit(order(SELLER, 'sell', '100', '2'));
    const depthBefore = market.depth();
    const usdtBefore = await h.app.ledger.balance({ ...userTrader(BUYER).account, asset: 'USDT' });
    await market.submit(order(BUYER, 'buy', '80', '1'));
    // The next two share one transaction, and it fails: the crossing buy traded in memory before it did.
    failTransaction = transactions + 1;
    const outcomes = await Promise.allSettled([
      market.submit(order(BUYER, 'buy', '100', '1')),
      market.submit(order(BUYER, 'buy', '90', '1')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await market.idle();
    expect(market.depth().asks).toEqual(depthBefore.asks);
    expect(market.depth().bids.map((level) => level.price.toString())).toEqual(['80']);
    expect(market.latestTrades()).toEqual([]);
    const usdtAfter = await h.app.ledger.balance({ ...userTrader(BUYER).account, asset: 'USDT' });
    expect(usdtAfter.available.toString()).toBe(usdtBefore.available.sub(Dec.parse('80')).toString());
    const rows = await h.store.db.selectFrom('spot_orders').select('autoid').execute();
    expect(rows).toHaveLength(2);
    // The rebuilt book still matches: the resting sell fills a new buy.
    const { orders } = await market.submit(order(BUYER, 'buy', '100', '2'));
    expect(orders[0]).toMatchObject({ state: 'filled' });
    expect(Dec.parse(orders[0]!.deal_amount).eq(Dec.parse('2'))).toBe(true);
  });
});
