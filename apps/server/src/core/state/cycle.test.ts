import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/index.ts';
import { step } from '../sequencer/index.ts';
import type { CycleOpenCommand } from './cycle.ts';
import { type MoneyCommand, moneyMachine } from './index.ts';
import { available } from './money-state.ts';

const AT = Date.UTC(2026, 10, 26);
/** Half of them win and are paid back: more paybacks than a command's batch may hold (1,000). */
const ORDERS = 2_500;

function open(userId: number, n: number): CycleOpenCommand {
  return {
    kind: 'cycleOpen',
    at: AT + (n % 1000),
    userId,
    email: 'u@example.com',
    pairId: 1,
    tradcoin: 'BTC',
    maincoin: 'USDT',
    paycoin: 'USDT',
    side: n % 2 === 0 ? 'buy' : 'sell',
    number: '10',
    seconds: 30,
    minnumber: '1',
    maxnumber: '100',
    profitGas: '0.8',
    lossGas: '1',
    gas: '0.1',
    openPrice: '100',
    openTs: AT,
    openSource: 'test',
  };
}

describe('cycle contracts in the money state', () => {
  it('settles more contracts in one tick than a command batch may hold, the money conserved', () => {
    const machine = moneyMachine();
    const state = machine.initialState();
    let seq = 0;
    const apply = (command: MoneyCommand) => step(machine, state, command, ++seq);
    const fund = (userId: number) => ({
      id: `fund:${userId}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, 'spot'),
      asset: 'USDT',
      amount: Dec.parse('100000'),
      code: 'test_funding',
    });
    expect(apply({ kind: 'transfer', at: AT, batch: [fund(1), fund(2)] }).result.ok).toBe(true);
    for (let n = 0; n < ORDERS; n++) expect(apply(open(1 + (n % 2), n)).result.ok).toBe(true);
    // Refused, changing nothing: no email, and a stake over the option's maximum.
    expect(apply({ ...open(1, 0), email: null }).result).toEqual({
      ok: false,
      error: 'rules.bindEmailFirst',
    });
    expect(apply({ ...open(1, 0), number: '101' }).result.ok).toBe(false);
    const staked = available(state, systemAccount('cycle_stakes'), 'USDT');
    expect(staked.toString()).toBe(String(ORDERS * 10));

    // They expire from AT + 30 s to AT + 30.999 s: the tick of AT + 31.5 s settles them all, closing each at the
    // tick of AT + 29.9 s (the one at or before its instant, within the tolerance): ups win, downs lose.
    const tick = (ts: number, price: string) =>
      apply({ kind: 'cycleSettle', at: ts, coin: 'BTC', price, ts, source: 'test', toleranceMs: 2000 });
    expect(tick(AT + 29_900, '101').events).toEqual([]);
    const { events } = tick(AT + 31_500, '99');
    expect(state.cycle.open.size).toBe(0);
    const settlements = events.flatMap((event) =>
      event.type === 'cycleSettled' ? event.atCloses.flatMap((close) => close.settlements) : [],
    );
    expect(settlements).toHaveLength(ORDERS);
    expect(new Set(settlements.map((row) => row.result))).toEqual(new Set(['win', 'loss']));
    expect(available(state, systemAccount('cycle_stakes'), 'USDT').isZero()).toBe(true);
    // Every unit is somewhere: the two users, the house and the fee account hold what was funded.
    const total = [userAccount(1, 'spot'), userAccount(2, 'spot'), systemAccount('fees')]
      .map((ref) => available(state, ref, 'USDT'))
      .reduce((sum, each) => sum.add(each), available(state, systemAccount('treasury'), 'USDT'));
    expect(total.isZero()).toBe(true);
  });

  it('settles at a cut with no new tick from the latest tick it holds, void past the tolerance', () => {
    const machine = moneyMachine();
    const state = machine.initialState();
    let seq = 0;
    const apply = (command: MoneyCommand) => step(machine, state, command, ++seq);
    const fund = {
      id: 'fund:1',
      debit: systemAccount('treasury'),
      credit: userAccount(1, 'spot'),
      asset: 'USDT',
      amount: Dec.parse('100'),
      code: 'test_funding',
    };
    expect(apply({ kind: 'transfer', at: AT, batch: [fund] }).result.ok).toBe(true);
    // Both up, opened at AT: one expires at AT + 30 s, the other (opened 5 s later) at AT + 35 s.
    expect(apply({ ...open(1, 0), at: AT }).result.ok).toBe(true);
    expect(apply({ ...open(1, 2), at: AT + 5000 }).result.ok).toBe(true);
    const settle = { kind: 'cycleSettle', coin: 'BTC', source: 'test', toleranceMs: 2000 } as const;
    expect(apply({ ...settle, at: AT + 29_000, ts: AT + 29_000, price: '101' }).events).toEqual([]);
    const cut = (ts: number) => {
      const { result, events } = apply({ kind: 'cycleSettle', at: ts, coin: 'BTC', ts, toleranceMs: 2000 });
      expect(result).toEqual({ ok: true });
      return events.flatMap((event) => (event.type === 'cycleSettled' ? event.atCloses : []));
    };
    expect(cut(AT + 29_999)).toEqual([]);
    // Due by AT + 40 s: the first closes at the tick of AT + 29 s (1 s before it), the second is void (6 s).
    const [won, voided] = cut(AT + 40_000);
    expect(won?.close).toMatchObject({ close_price: '101', close_ts: AT + 29_000, void_tolerance_ms: null });
    expect(won?.settlements.map((row) => row.result)).toEqual(['win']);
    expect(voided?.close).toMatchObject({ close_ts: AT + 29_000, void_tolerance_ms: 2000 });
    expect(voided?.settlements.map((row) => row.result)).toEqual(['void']);
    expect(state.cycle.open.size).toBe(0);
    // The cut is no tick: the latest stays the one recorded.
    expect(state.cycle.lastTicks.get('BTC')?.ts).toBe(AT + 29_000);
    expect(
      apply({ kind: 'cycleSettle', at: AT, coin: 'BTC', ts: AT, price: '1', toleranceMs: 0 }).result,
    ).toEqual({ ok: false, error: 'ledger.invalidTransfer', params: { field: 'source' } });
  });
});
