import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import {
  type AccountKey,
  type AccountRef,
  accountKey,
  accountMapKey,
  accountMapKeyOf,
  custodyWallet,
  systemAccount,
  userAccount,
} from '../../ledger/accounts.ts';
import { type AccountState, applyBatch, isLedgerRefusal } from '../../ledger/plan.ts';
import { LedgerAccounts } from './ledger-accounts.ts';

function accountOf(key: AccountKey, credits = '0'): AccountState {
  return {
    key,
    mapKey: accountMapKey(key),
    id: null,
    mayGoNegative: false,
    debitsPosted: Dec.ZERO,
    creditsPosted: Dec.parse(credits),
    debitsPending: Dec.ZERO,
    creditsPending: Dec.ZERO,
    createdAt: 1,
  };
}

const refs: AccountRef[] = [
  userAccount(7, 'spot'),
  userAccount(7, 'futures'),
  userAccount(8, 'spot'),
  systemAccount('fees'),
  systemAccount(custodyWallet('bsc')),
];
const assets = ['USDT', 'BTC'];

/** `find` must answer exactly what a lookup by map key answers, for every account that is or is not there. */
function expectFindAgreesWithGet(accounts: LedgerAccounts): void {
  for (const ref of refs)
    for (const asset of [...assets, 'ETH'])
      expect(accounts.find(ref, asset)).toBe(accounts.get(accountMapKeyOf(ref, asset)));
}

describe('the money state ledger accounts (LedgerAccounts)', () => {
  it('finds an account by owner, wallet and asset exactly as by its key, through sets, replacements, deletes and clear', () => {
    const accounts = new LedgerAccounts();
    expectFindAgreesWithGet(accounts);
    for (const ref of refs)
      for (const asset of assets) {
        const account = accountOf(accountKey(ref, asset));
        accounts.set(account.mapKey, account);
      }
    expectFindAgreesWithGet(accounts);
    expect(accounts.find(userAccount(7, 'futures'), 'BTC')?.key).toEqual({
      owner: 7,
      wallet: 'futures',
      asset: 'BTC',
    });

    const replacement = accountOf(accountKey(userAccount(7, 'spot'), 'USDT'), '5');
    accounts.set(replacement.mapKey, replacement);
    expect(accounts.find(userAccount(7, 'spot'), 'USDT')).toBe(replacement);
    const systemReplacement = accountOf(accountKey(systemAccount('fees'), 'BTC'), '3');
    accounts.set(systemReplacement.mapKey, systemReplacement);
    expect(accounts.find(systemAccount('fees'), 'BTC')).toBe(systemReplacement);
    expectFindAgreesWithGet(accounts);

    expect(accounts.delete(accountMapKeyOf(userAccount(7, 'spot'), 'BTC'))).toBe(true);
    expect(accounts.delete(accountMapKeyOf(userAccount(7, 'spot'), 'BTC'))).toBe(false);
    expect(accounts.delete(accountMapKeyOf(systemAccount('fees'), 'USDT'))).toBe(true);
    expectFindAgreesWithGet(accounts);
    expect(accounts.find(userAccount(7, 'spot'), 'BTC')).toBeUndefined();

    accounts.clear();
    expect(accounts.size).toBe(0);
    expectFindAgreesWithGet(accounts);
  });

  it('refuses a user account whose owner is text, which find would miss', () => {
    const accounts = new LedgerAccounts();
    const key = { owner: '7', wallet: 'spot', asset: 'USDT' } as unknown as AccountKey;
    expect(() => accounts.set(accountMapKey(key), accountOf(key))).toThrow(/not a number/);
  });

  it('forgets the accounts a refused batch created, so a retry finds none of them', () => {
    const accounts = new LedgerAccounts();
    const state = { accounts, holds: new Map(), transfers: new Map() };
    const alice = userAccount(1, 'spot');
    const bob = userAccount(2, 'spot');
    const refused = applyBatch(
      state,
      [
        {
          id: 'overdraft',
          debit: alice,
          credit: bob,
          asset: 'USDT',
          amount: Dec.parse('1'),
          code: 'transfer',
        },
      ],
      1,
    );
    expect(isLedgerRefusal(refused)).toBe(true);
    expect(accounts.size).toBe(0);
    expect(accounts.find(alice, 'USDT')).toBeUndefined();
    expect(accounts.find(bob, 'USDT')).toBeUndefined();
  });
});
