import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/accounts.ts';
import { step } from '../sequencer/index.ts';
import { TEST_PAIRS, takeCommands } from './command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyState,
  moneyMachine,
  type PlaceCommand,
  type SpotOrderRecord,
  type SpotTradeRecord,
} from './index.ts';
import { available } from './money-state.ts';
import { captureMoneyState, decodeMoneyState } from './snapshot-codec.ts';

/**
 * The spot events (commands.ts): what a command publishes must be the rows
 * the spot tables would hold, exactly (one worked example), and must agree
 * with the state itself over a seeded stream (the open orders' fills, the
 * trades' sums, the fees collected). Events after a snapshot is loaded must
 * be those of the live state: the order fields the rows need travel in the
 * snapshot.
 */
const machine = moneyMachine();
const PAIR = TEST_PAIRS[0]!;
const T0 = Date.UTC(2026, 10, 26);

function run(state: MoneyState, commands: MoneyCommand[], firstSeq = 1): MoneyEvent[][] {
  return commands.map((command, index) => step(machine, state, command, firstSeq + index).events);
}

function spotEvents(events: MoneyEvent[]): MoneyEvent[] {
  return events.filter((event) => event.type !== 'transfers' && event.type !== 'book');
}

function place(at: number, who: number, side: 'buy' | 'sell', amount: string, price?: string): PlaceCommand {
  return {
    kind: 'place',
    at,
    pair: PAIR.symbol,
    owner: String(who),
    account: userAccount(who, 'spot'),
    email: 'x@example.com',
    side,
    style: price === undefined ? 'market' : 'limit',
    ...(price === undefined ? {} : { price }),
    amount,
  };
}

function deposit(at: number, who: number, asset: string, amount: string): MoneyCommand {
  return {
    kind: 'transfer',
    at,
    batch: [
      {
        id: `deposit:${who}:${asset}`,
        debit: systemAccount('treasury'),
        credit: userAccount(who, 'spot'),
        asset,
        amount: Dec.parse(amount),
        code: 'deposit',
      },
    ],
  };
}

/** The pair open, user 1 with 5 BTC to sell and user 2 with 1,000 USDT to buy with (commands 1 to 3). */
function sellerAndBuyer(): MoneyState {
  const state = machine.initialState();
  run(state, [
    { kind: 'openPair', at: T0, pair: PAIR },
    deposit(T0, 1, 'BTC', '5'),
    deposit(T0, 2, 'USDT', '1000'),
  ]);
  return state;
}

const order = (fields: Partial<SpotOrderRecord>): SpotOrderRecord => ({
  orderId: 0,
  pair: PAIR.symbol,
  owner: '',
  side: 'buy',
  style: 'limit',
  price: null,
  amount: '0',
  unfilled: '0',
  held: '0',
  holdSpent: '0',
  dealAmount: '0',
  dealMoney: '0',
  fee: '0',
  feeHal: '0',
  state: 'unfilled',
  cancelReason: null,
  placedAt: 0,
  updatedAt: 0,
  ...fields,
});

describe('spot events', () => {
  it('publish the rows of a resting order, a partial fill and a cancel', () => {
    const state = sellerAndBuyer();
    const [resting, crossing, cancel] = run(
      state,
      [
        place(T0 + 10, 1, 'sell', '2', '100'),
        place(T0 + 20, 2, 'buy', '0.5', '101'),
        { kind: 'cancel', at: T0 + 30, pair: PAIR.symbol, owner: '1', orderId: 1 },
      ],
      4,
    );
    const sell = order({
      orderId: 1,
      owner: '1',
      side: 'sell',
      price: '100',
      amount: '2',
      placedAt: T0 + 10,
    });
    const sellRow = { ...sell, unfilled: '2', held: '2', updatedAt: T0 + 10 };
    // The new order once, as it stands after its command: no second record of it.
    expect(spotEvents(resting!)).toEqual([{ type: 'spotOrderAccepted', order: sellRow }]);

    // The buy takes 0.5 at the maker's 100: the seller (maker, 0.1%) pays 0.05 USDT, the buyer (taker, 0.2%) 0.001 BTC.
    const buyPlaced = order({
      orderId: 2,
      owner: '2',
      price: '101',
      amount: '0.5',
      unfilled: '0.5',
      held: '50.5',
      placedAt: T0 + 20,
      updatedAt: T0 + 20,
    });
    const trade: SpotTradeRecord = {
      pair: PAIR.symbol,
      tradeId: 'spot:2:t0',
      makerOrderId: 1,
      takerOrderId: 2,
      takerSide: 'buy',
      price: '100',
      amount: '0.5',
      quoteAmount: '50',
      buyerFee: '0.001',
      sellerFee: '0.05',
      buyerFeeCoin: 'BTC',
      sellerFeeCoin: 'USDT',
      at: T0 + 20,
    };
    const sellAfter = {
      ...sellRow,
      unfilled: '1.5',
      holdSpent: '0.5',
      dealAmount: '0.5',
      dealMoney: '50',
      fee: '0.05',
      state: 'partial' as const,
      updatedAt: T0 + 20,
    };
    expect(spotEvents(crossing!)).toEqual([
      {
        type: 'spotOrderAccepted',
        order: {
          ...buyPlaced,
          unfilled: '0',
          holdSpent: '50',
          dealAmount: '0.5',
          dealMoney: '50',
          fee: '0.001',
          state: 'filled',
        },
      },
      { type: 'spotTrade', trade },
      { type: 'spotOrderUpdated', order: sellAfter },
    ]);

    expect(spotEvents(cancel!)).toEqual([
      {
        type: 'spotOrderUpdated',
        order: { ...sellAfter, state: 'partially_cancelled', cancelReason: 'user', updatedAt: T0 + 30 },
      },
    ]);
  });

  it('publish every ledger leg of a trade, remember none of them for retries, and forget an ended order’s hold', () => {
    const state = sellerAndBuyer();
    const [, crossing] = run(
      state,
      [place(T0 + 10, 1, 'sell', '2', '100'), place(T0 + 20, 2, 'buy', '0.5', '101')],
      4,
    );
    const published = crossing!.flatMap((event) =>
      event.type === 'transfers' ? event.transfers.map((transfer) => transfer.id) : [],
    );
    expect(published).toEqual([
      'spot:2:hold',
      'spot:2:t0:quote',
      'spot:2:t0:base',
      'spot:2:t0:to-seller',
      'spot:2:t0:to-buyer',
      'spot:2:release',
      'spot:2:t0:seller-fee',
      'spot:2:t0:buyer-fee',
    ]);
    // The legs' ids derive from the order's: no retry can name them, so neither the ledger nor the window keeps them.
    const remembered = ['deposit:1:BTC', 'deposit:2:USDT'];
    expect([...state.ledger.transfers.keys()].sort()).toEqual(remembered);
    expect(
      [...state.transferIds.epochs.values()]
        .flat()
        .map((transfer) => transfer.id)
        .sort(),
    ).toEqual(remembered);
    expect(available(state, userAccount(2, 'spot'), 'BTC').toString()).toBe('0.499');
    // The filled buy's hold is closed and forgotten; the resting sell's is open, less what the trade posted.
    expect([...state.ledger.holds.keys()]).toEqual(['spot:1:hold']);
    expect(state.ledger.holds.get('spot:1:hold')).toMatchObject({
      state: 'open',
      remaining: Dec.parse('1.5'),
    });

    run(state, [{ kind: 'cancel', at: T0 + 30, pair: PAIR.symbol, owner: '1', orderId: 1 }], 6);
    expect(state.ledger.holds.size).toBe(0);
    expect(available(state, userAccount(1, 'spot'), 'BTC').toString()).toBe('4.5');
  });

  it("cancel all of an owner's orders in one pair, and only those", () => {
    const state = machine.initialState();
    const other = TEST_PAIRS[1]!;
    run(state, [
      { kind: 'openPair', at: T0, pair: PAIR },
      { kind: 'openPair', at: T0, pair: other },
      deposit(T0, 1, 'USDT', '1000'),
      deposit(T0, 2, 'BTC', '1'),
    ]);
    run(
      state,
      [
        place(T0 + 1, 1, 'buy', '1', '90'),
        place(T0 + 2, 1, 'buy', '2', '95'),
        { ...place(T0 + 3, 1, 'buy', '1', '50'), pair: other.symbol },
        place(T0 + 4, 2, 'sell', '0.5', '95'),
      ],
      5,
    );
    const cancelAll = (pair: string, owner: string) => ({
      kind: 'cancelAll' as const,
      at: T0 + 9,
      pair,
      owner,
    });
    const { result, events } = step(machine, state, cancelAll(PAIR.symbol, '1'), 9);
    expect(result).toEqual({
      ok: true,
      orders: [
        { orderId: 1, filled: '0', open: false },
        { orderId: 2, filled: '0.5', open: false },
      ],
    });
    expect(
      spotEvents(events).map((event) =>
        event.type === 'spotOrderUpdated'
          ? [event.order.orderId, event.order.state, event.order.cancelReason]
          : [],
      ),
    ).toEqual([
      [1, 'cancelled', 'user'],
      [2, 'partially_cancelled', 'user'],
    ]);
    // 1000 less the 47.5 order 2 spent and the 50 order 3 still holds in the other pair.
    expect([...state.orders.keys()]).toEqual([3]);
    expect(available(state, userAccount(1, 'spot'), 'USDT').toString()).toBe('902.5');
    expect(step(machine, state, cancelAll(PAIR.symbol, '1'), 10)).toEqual({
      result: { ok: true, orders: [] },
      events: [],
    });
    expect(step(machine, state, cancelAll('NOPE/USDT', '1'), 11).result).toEqual({
      ok: false,
      error: 'spot.pairNotFound',
    });
  });

  it("take the command's index price as the latest price until the pair's first trade", () => {
    const state = sellerAndBuyer();
    const marketBuy = (indexPrice: string | undefined) => ({
      ...place(T0 + 1, 2, 'buy', '1'),
      ...(indexPrice === undefined ? {} : { indexPrice }),
    });
    for (const missing of [undefined, 'abc', '0', '-5'])
      expect(step(machine, state, marketBuy(missing), 4).result, String(missing)).toEqual({
        ok: false,
        error: 'spot.noPrice',
      });
    // An empty book: the buy holds 90 × 1 × 1.05 and is cancelled for want of liquidity.
    const [events] = run(state, [marketBuy('90')], 5);
    expect(spotEvents(events!).at(-1)).toMatchObject({
      order: { held: '94.5', state: 'cancelled', cancelReason: 'no_liquidity' },
    });
    // After a trade at 100, the index price no longer counts.
    run(state, [place(T0 + 2, 1, 'sell', '0.5', '100'), place(T0 + 3, 2, 'buy', '0.5', '100')], 6);
    const [after] = run(state, [marketBuy('90')], 8);
    expect(spotEvents(after!)[0]).toMatchObject({ order: { held: '105' } });
  });

  it('agree with the state over a seeded stream, and after a snapshot is loaded', () => {
    const commands = takeCommands({ seed: 4_242, users: 60, traders: 12, referral: true }, 6_000);
    const half = commands.length / 2;
    const live = machine.initialState();
    const rows = new Map<number, SpotOrderRecord>();
    const tradeSums = new Map<number, FillSums>();
    const feesCollected = new Map<string, Dec>();
    let trades = 0;
    let commissionRows = 0;
    let snapshot: Uint8Array | null = null;
    const liveEvents: MoneyEvent[][] = [];
    commands.forEach((command, index) => {
      const { events } = step(machine, live, command, index + 1);
      if (index >= half) liveEvents.push(events);
      for (const event of events) {
        if (event.type === 'spotOrderAccepted') {
          expect(rows.has(event.order.orderId), 'accepted once').toBe(false);
          rows.set(event.order.orderId, event.order);
        } else if (event.type === 'spotOrderUpdated') {
          expect(rows.has(event.order.orderId), 'updated after accepted').toBe(true);
          rows.set(event.order.orderId, event.order);
        } else if (event.type === 'spotTrade') {
          trades += 1;
          const { trade } = event;
          const [buyer, seller] =
            trade.takerSide === 'buy'
              ? [trade.takerOrderId, trade.makerOrderId]
              : [trade.makerOrderId, trade.takerOrderId];
          // A fee in HAL where the side receives another coin was paid by fee deduction (feeHal).
          const tradcoin = trade.pair.split('/')[0]!;
          addFill(
            tradeSums,
            buyer,
            trade,
            trade.buyerFee,
            trade.buyerFeeCoin === 'HAL' && tradcoin !== 'HAL',
          );
          addFill(tradeSums, seller, trade, trade.sellerFee, trade.sellerFeeCoin === 'HAL');
          for (const [coin, fee] of [
            [trade.buyerFeeCoin, trade.buyerFee],
            [trade.sellerFeeCoin, trade.sellerFee],
          ] as const)
            feesCollected.set(coin, (feesCollected.get(coin) ?? Dec.ZERO).add(Dec.parse(fee)));
        } else if (event.type === 'referralCommissions') {
          commissionRows += event.rows.length;
        } else if (event.type === 'transfers') {
          // The commissions are paid out of the fee account, by the payout sweeps.
          for (const transfer of event.transfers) {
            if (transfer.code !== 'referral_commission' && transfer.code !== 'referral_kickback') continue;
            const before = feesCollected.get(transfer.asset) ?? Dec.ZERO;
            feesCollected.set(transfer.asset, before.sub(transfer.amount));
          }
        }
      }
      if (index + 1 === half) snapshot = snapshotOf(live);
    });
    expect(trades).toBeGreaterThan(500);
    expect(commissionRows).toBeGreaterThan(50);
    expect([...rows.values()].filter((row) => row.feeHal !== '0').length).toBeGreaterThan(20);

    // Every row's fill is the sum of its trades; the open ones are the state's open orders, as the state holds them.
    const open = [...rows.values()].filter((row) => row.state === 'unfilled' || row.state === 'partial');
    expect(open.map((row) => row.orderId).sort()).toEqual([...live.orders.keys()].sort());
    for (const row of rows.values()) {
      const sums = tradeSums.get(row.orderId) ?? NO_FILL;
      expect([row.dealAmount, row.dealMoney, row.fee, row.feeHal], `order ${row.orderId}`).toEqual([
        sums.amount.toString(),
        sums.money.toString(),
        sums.fee.toString(),
        sums.feeHal.toString(),
      ]);
      expect(Dec.parse(row.amount).sub(Dec.parse(row.unfilled)).toString()).toBe(row.dealAmount);
      const held = live.orders.get(row.orderId);
      if (held)
        expect(
          [held.remaining, held.dealMoney, held.fee, held.feeHal].map((value) => value.toString()),
        ).toEqual([row.unfilled, row.dealMoney, row.fee, row.feeHal]);
    }
    // The fee account holds exactly the fees the trades name, less the commissions paid from it.
    for (const [coin, fee] of feesCollected)
      expect(available(live, systemAccount('fees'), coin).toString(), coin).toBe(fee.toString());
    // And it covers what is accrued and not yet credited.
    const owed = new Map<string, Dec>();
    for (const row of live.referral.unpaid.values())
      owed.set(
        row.coin,
        (owed.get(row.coin) ?? Dec.ZERO).add(row.amount).add(row.kickback).add(row.level2Amount),
      );
    expect(owed.size).toBeGreaterThan(0);
    for (const [coin, amount] of owed)
      expect(available(live, systemAccount('fees'), coin).gte(amount), coin).toBe(true);

    // The second half again, from the snapshot: the same events.
    const loaded = decodeMoneyState(snapshot!);
    expect(run(loaded, commands.slice(half), half + 1)).toEqual(liveEvents);
  });
});

interface FillSums {
  amount: Dec;
  money: Dec;
  fee: Dec;
  feeHal: Dec;
}

const NO_FILL: FillSums = { amount: Dec.ZERO, money: Dec.ZERO, fee: Dec.ZERO, feeHal: Dec.ZERO };

function addFill(
  sums: Map<number, FillSums>,
  orderId: number,
  trade: SpotTradeRecord,
  fee: string,
  inHal: boolean,
): void {
  const before = sums.get(orderId) ?? NO_FILL;
  sums.set(orderId, {
    amount: before.amount.add(Dec.parse(trade.amount)),
    money: before.money.add(Dec.parse(trade.quoteAmount)),
    fee: inHal ? before.fee : before.fee.add(Dec.parse(fee)),
    feeHal: inHal ? before.feeHal.add(Dec.parse(fee)) : before.feeHal,
  });
}

function snapshotOf(state: MoneyState): Uint8Array {
  const capture = captureMoneyState(state);
  const parts: Uint8Array[] = [];
  for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
  return Buffer.concat(parts);
}
