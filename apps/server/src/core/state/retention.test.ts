import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { custodyWallet, systemAccount, userAccount } from '../../ledger/accounts.ts';
import { step } from '../sequencer/index.ts';
import { type MoneyCommand, moneyMachine, type TransferCommand } from './index.ts';

/** The bounded retry window: what is remembered, what is forgotten, and what never is. */
const machine = moneyMachine({ epochSeqs: 10, epochsKept: 2 });
const custody = systemAccount(custodyWallet('bsc'));
const alice = userAccount(1, 'spot');
const fiatAds = systemAccount('fiat_ads');
const deposit = (id: string): TransferCommand => ({
  kind: 'transfer',
  at: 1,
  batch: [{ id, debit: custody, credit: alice, asset: 'USDT', amount: Dec.parse('10'), code: 'deposit' }],
});

describe('retry window', () => {
  it('answers a retry inside the window, forgets it after, and never forgets an open hold', () => {
    const state = machine.initialState();
    let seq = 0;
    const apply = (command: MoneyCommand) => step(machine, state, command, ++seq).result;

    apply(deposit('d1'));
    const hold: TransferCommand = {
      kind: 'transfer',
      at: 1,
      batch: [
        {
          id: 'h1',
          type: 'pending',
          debit: alice,
          credit: fiatAds,
          asset: 'USDT',
          amount: Dec.parse('4'),
          code: 'hold',
        },
      ],
    };
    expect(apply(hold)).toEqual({ ok: true, transfers: ['h1'] });
    // Within the window: the same request is answered, a different one conflicts.
    expect(apply(deposit('d1'))).toEqual({ ok: true, transfers: ['d1'] });
    expect(apply({ ...deposit('d1'), batch: [{ ...deposit('d1').batch[0]!, code: 'other' }] })).toMatchObject(
      {
        ok: false,
        error: 'ledger.idConflict',
      },
    );

    // Far past the window (two epochs of ten, 32 ids forgotten a command): d1 is forgotten, the open hold is not.
    while (seq < 60) apply({ kind: 'cancel', at: 1, pair: 'NONE/USDT', owner: '1', orderId: 1 });
    expect(state.ledger.transfers.has('d1')).toBe(false);
    expect(state.ledger.transfers.has('h1')).toBe(true);
    expect(apply(hold)).toEqual({ ok: true, transfers: ['h1'] });
    expect(state.ledger.holds.get('h1')?.remaining.toString()).toBe('4');

    // Once voided, the hold leaves with its transfer when its epoch expires.
    apply({
      kind: 'transfer',
      at: 1,
      batch: [{ id: 'v1', type: 'void_pending', pendingId: 'h1', code: 'release' }],
    });
    while (seq < 100) apply({ kind: 'cancel', at: 1, pair: 'NONE/USDT', owner: '1', orderId: 1 });
    expect(state.ledger.holds.has('h1')).toBe(false);
    expect(state.ledger.transfers.has('h1')).toBe(false);
  });
});
