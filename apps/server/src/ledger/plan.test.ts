import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { accountMapKeyOf, custodyWallet, systemAccount, userAccount } from './accounts.ts';
import { LEDGER_ERRORS } from './errors.ts';
import { applyBatch, batchShapeRefusal, isLedgerRefusal, type LedgerState } from './plan.ts';
import type { TransferInput } from './transfers.ts';

/**
 * applyBatch changes the state in place: a refused batch must leave it
 * exactly as it was, whatever the inputs before the refused one did
 * (accounts created and changed, holds opened and posted, transfers added).
 */

const custody = systemAccount(custodyWallet('bsc'));
const alice = userAccount(1, 'spot');
const bob = userAccount(2, 'spot');
const clearing = systemAccount('clearing');
const amount = (text: string) => Dec.parse(text);

function emptyState(): LedgerState {
  return { transfers: new Map(), holds: new Map(), accounts: new Map() };
}

/** Everything the state holds, as plain text: equal text, equal state. */
function contentOf(state: LedgerState): string {
  const sorted = <V>(map: Map<string, V>) => [...map].sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({
    accounts: sorted(state.accounts),
    holds: sorted(state.holds),
    transfers: sorted(state.transfers),
  });
}

function apply(state: LedgerState, batch: TransferInput[]) {
  return applyBatch(state, batch, 1_000);
}

describe('applyBatch', () => {
  it('leaves the state exactly as it was when a batch is refused after changing it', () => {
    const state = emptyState();
    const funded = apply(state, [
      { id: 'dep', debit: custody, credit: alice, asset: 'USDT', amount: amount('100'), code: 'deposit' },
      {
        id: 'hold',
        type: 'pending',
        debit: alice,
        credit: clearing,
        asset: 'USDT',
        amount: amount('30'),
        code: 'order',
      },
    ]);
    expect(isLedgerRefusal(funded)).toBe(false);
    const before = contentOf(state);

    const refused = apply(state, [
      { id: 'post', type: 'post_pending', pendingId: 'hold', amount: amount('10'), code: 'trade' },
      { id: 'pay', debit: clearing, credit: bob, asset: 'USDT', amount: amount('10'), code: 'trade' },
      { id: 'new-coin', debit: custody, credit: bob, asset: 'BTC', amount: amount('1'), code: 'deposit' },
      { id: 'void', type: 'void_pending', pendingId: 'hold', code: 'release' },
      { id: 'too-much', debit: alice, credit: bob, asset: 'USDT', amount: amount('95'), code: 'transfer' },
    ]);

    expect(refused).toEqual({ refused: LEDGER_ERRORS.insufficientBalance, transferId: 'too-much' });
    expect(contentOf(state)).toBe(before);
  });

  it('answers the refusals of the rules as values, each naming its transfer', () => {
    const state = emptyState();
    apply(state, [
      { id: 'dep', debit: custody, credit: alice, asset: 'USDT', amount: amount('5'), code: 'deposit' },
    ]);
    const cases: [TransferInput, string][] = [
      [
        { id: 'dep', debit: custody, credit: alice, asset: 'USDT', amount: amount('6'), code: 'deposit' },
        LEDGER_ERRORS.idConflict,
      ],
      [
        { id: 'p', type: 'post_pending', pendingId: 'none', amount: amount('1'), code: 'trade' },
        LEDGER_ERRORS.holdNotFound,
      ],
      [
        { id: 'x', debit: alice, credit: bob, asset: 'USDT', amount: amount('5.000001'), code: 'transfer' },
        LEDGER_ERRORS.insufficientBalance,
      ],
    ];
    for (const [input, refused] of cases) {
      expect(apply(state, [input])).toEqual({ refused, transferId: input.id });
    }
    // A retry of the same request is answered, not repeated.
    const retried = apply(state, [
      { id: 'dep', debit: custody, credit: alice, asset: 'USDT', amount: amount('5'), code: 'deposit' },
    ]);
    expect(retried).toMatchObject({ results: ['dep'], newTransfers: [] });
  });

  it('applies a derived transfer without looking its id up or remembering it, and undoes it on a refusal', () => {
    const state = emptyState();
    apply(state, [
      { id: 'dep', debit: custody, credit: alice, asset: 'USDT', amount: amount('10'), code: 'deposit' },
      {
        id: 'hold',
        type: 'pending',
        debit: alice,
        credit: clearing,
        asset: 'USDT',
        amount: amount('4'),
        code: 'order',
      },
    ]);
    const post: TransferInput = {
      id: 'hold:t0',
      type: 'post_pending',
      pendingId: 'hold',
      amount: amount('3'),
      code: 'trade',
      derived: true,
    };
    const pay: TransferInput = {
      id: 'hold:t0:pay',
      debit: clearing,
      credit: bob,
      asset: 'USDT',
      amount: amount('3'),
      code: 'trade',
      derived: true,
    };
    const before = contentOf(state);
    const tooMuch: TransferInput = { ...pay, id: 'hold:t0:more', amount: amount('3.1') };
    expect(apply(state, [post, pay, tooMuch])).toEqual({
      refused: LEDGER_ERRORS.insufficientBalance,
      transferId: 'hold:t0:more',
    });
    expect(contentOf(state)).toBe(before);

    const plan = apply(state, [post, pay]);
    expect(plan).toMatchObject({ results: ['hold:t0', 'hold:t0:pay'], remembered: [] });
    expect(isLedgerRefusal(plan) ? [] : plan.newTransfers.map((transfer) => transfer.id)).toEqual([
      'hold:t0',
      'hold:t0:pay',
    ]);
    expect([...state.transfers.keys()]).toEqual(['dep', 'hold']);
    expect(state.accounts.get(accountMapKeyOf(bob, 'USDT'))?.creditsPosted.toString()).toBe('3');
    // The mark is `true` or absent: anything else is a malformed input, refused before anything is applied.
    const malformed = { ...pay, id: 'other', derived: 'yes' } as unknown as TransferInput;
    expect(batchShapeRefusal([malformed])).toEqual({
      refused: LEDGER_ERRORS.invalidTransfer,
      transferId: 'other',
      params: { field: 'derived' },
    });
  });
});
