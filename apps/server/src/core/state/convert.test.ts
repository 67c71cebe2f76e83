import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/index.ts';
import { step } from '../sequencer/index.ts';
import type { ConvertQuote, MoneyCommand, MoneyResult } from './index.ts';
import { moneyMachine } from './machine.ts';
import type { MoneyState } from './money-state.ts';
import { captureMoneyState, decodeMoneyState, moneyStateHash } from './snapshot-codec.ts';

/**
 * What the convert command keeps beyond the ledger (the next order id and
 * the used quotes) survives a snapshot, and a used quote is forgotten only
 * once a later convert comes after its expiry. The equivalence with the
 * module is modules/convert/state-equivalence.test.ts.
 */

const machine = moneyMachine();
const AT = Date.UTC(2026, 10, 26);

function quote(id: string, expiresAt: number): ConvertQuote {
  return { id, userId: 7, from: 'USDT', to: 'BTC', rate: '0.00001', expiresAt };
}

function run(state: MoneyState, commands: MoneyCommand[]): MoneyResult[] {
  let seq = 0;
  return commands.map((command) => step(machine, state, command, ++seq).result);
}

function snapshotOf(state: MoneyState): Uint8Array {
  const capture = captureMoneyState(state);
  const parts: Uint8Array[] = [];
  for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
  return Buffer.concat(parts);
}

const funding: MoneyCommand = {
  kind: 'transfer',
  at: AT,
  batch: [
    {
      id: 'fund',
      debit: systemAccount('treasury'),
      credit: userAccount(7, 'spot'),
      asset: 'USDT',
      amount: Dec.parse('1000'),
      code: 'test_funding',
    },
  ],
};

const convert = (at: number, q: ConvertQuote): MoneyCommand => ({
  kind: 'convert',
  at,
  userId: 7,
  quote: q,
  amount: '100',
});

describe('the convert command', () => {
  it('numbers its orders and remembers a used quote across a snapshot', () => {
    const state = machine.initialState();
    const [, first, second] = run(state, [
      funding,
      convert(AT + 1, quote('q1', AT + 10_000)),
      convert(AT + 2, quote('q2', AT + 10_000)),
    ]);
    expect(first).toEqual({ ok: true, transfers: ['convert:1:in', 'convert:1:out'], convertOrderId: 1 });
    expect(second).toMatchObject({ ok: true, convertOrderId: 2 });

    const loaded = decodeMoneyState(snapshotOf(state));
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
    const [reused, third] = [
      step(machine, loaded, convert(AT + 3, quote('q1', AT + 10_000)), 4).result,
      step(machine, loaded, convert(AT + 4, quote('q3', AT + 10_000)), 5).result,
    ];
    expect(reused).toEqual({ ok: false, error: 'wallet.quoteExpired' });
    expect(third).toMatchObject({ ok: true, convertOrderId: 3 });
  });

  it('forgets a used quote once a convert comes after its expiry, which refuses it anyway', () => {
    const state = machine.initialState();
    run(state, [funding, convert(AT + 1, quote('q1', AT + 10_000))]);
    expect([...state.convert.usedQuotes.keys()]).toEqual(['q1']);
    const late = step(machine, state, convert(AT + 10_001, quote('q1', AT + 10_000)), 3).result;
    expect(late).toEqual({ ok: false, error: 'wallet.quoteExpired' });
    expect(state.convert.usedQuotes.size).toBe(0);
  });
});
