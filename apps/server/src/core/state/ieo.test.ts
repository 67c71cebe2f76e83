import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { accountMapKeyOf, ieoProjectWallet, systemAccount, userAccount } from '../../ledger/index.ts';
import { step } from '../sequencer/index.ts';
import type { IeoSaleTerms } from './ieo-rules.ts';
import type { MoneyCommand, MoneyResult } from './index.ts';
import { moneyMachine } from './machine.ts';
import { available, type MoneyState } from './money-state.ts';
import { captureMoneyState, decodeMoneyState, moneyStateHash } from './snapshot-codec.ts';

/**
 * What the IEO commands keep beyond the ledger survives a snapshot, a
 * repeated command (same id) subscribes once, an oversubscribed commit sale
 * with coarse token units creates and loses no unit, and malformed commands
 * are refused as values. The equivalence with the module is
 * modules/ieo/state-equivalence.test.ts.
 */

const machine = moneyMachine();
const AT = Date.UTC(2026, 10, 26);
const USERS = [1, 2, 3];

function snapshotOf(state: MoneyState): Uint8Array {
  const capture = captureMoneyState(state);
  const parts: Uint8Array[] = [];
  for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
  return Buffer.concat(parts);
}

const terms: IeoSaleTerms = {
  coin: 'LCH',
  mode: 'commit',
  total: '100',
  tokenDecimals: 0,
  payCoins: [{ paycoin: 'USDT', price: '0.37' }],
  minNumber: '1',
  maxNumber: '80',
  gift: '0.05',
  rebate: '0.1',
  vesting: { kind: 'tranches', cliffDays: 0, tranches: 3, intervalDays: 1 },
  startAt: AT,
  endAt: AT + 60_000,
};

const setup: MoneyCommand[] = [
  ...USERS.map(
    (userId): MoneyCommand => ({
      kind: 'transfer',
      at: AT,
      batch: [
        {
          id: `fund:${userId}`,
          debit: systemAccount('treasury'),
          credit: userAccount(userId, 'spot'),
          asset: 'USDT',
          amount: Dec.parse('100'),
          code: 'test_funding',
        },
      ],
    }),
  ),
  {
    kind: 'referralUser',
    at: AT,
    userId: 2,
    parentId: 1,
    feeDeduction: false,
    kickbackRate: '0',
    idNumbers: [],
  },
  { kind: 'ieoSale', at: AT, projectId: 1, terms, salt: 's', fundWhy: 'create', defundWhy: '' },
];

const commit = (userId: number, amount: string, id?: string): MoneyCommand => ({
  kind: 'ieoSubscribe',
  at: AT + 1_000,
  ...(id ? { id } : {}),
  userId,
  projectId: 1,
  paycoin: 'USDT',
  amount,
});

function runAll(state: MoneyState, commands: MoneyCommand[], from = 0): MoneyResult[] {
  let seq = from;
  return commands.map((command) => step(machine, state, command, ++seq).result);
}

/** A sale that opens later: its terms may still change. */
const later: MoneyCommand = {
  kind: 'ieoSale',
  at: AT,
  projectId: 3,
  terms: { ...terms, coin: 'LTR', startAt: AT + 3_600_000, endAt: AT + 7_200_000 },
  salt: 's',
  fundWhy: 'create',
  defundWhy: '',
};

describe('the IEO commands', () => {
  it('commit once per repeated id, keep the sale across a snapshot, and allocate without creating or losing a unit', () => {
    const state = machine.initialState();
    runAll(state, setup);
    const answers = runAll(
      state,
      [commit(1, '20', 'c1'), commit(1, '20', 'c1'), commit(2, '33.3'), commit(3, '40.01'), commit(2, '5')],
      setup.length,
    );
    expect(answers.map((answer) => answer.ok && answer.ieoOrderId)).toEqual([1, 1, 2, 3, 2]);
    expect(available(state, userAccount(1, 'spot'), 'USDT').toString()).toBe('80');

    const loaded = decodeMoneyState(snapshotOf(state));
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
    // The clock's ieoAdvance allocates the sale and leaves it distributing; the next distributes its one batch.
    const end: MoneyCommand[] = [
      { kind: 'ieoAdvance', at: AT + 60_000, projectId: 1 },
      { kind: 'ieoAdvance', at: AT + 60_000, projectId: 1 },
    ];
    const seq = setup.length + answers.length;
    const ended = runAll(state, end, seq);
    expect(runAll(loaded, end, seq)).toEqual(ended);
    expect(ended.map((answer) => answer.ok && (answer.ieoDistributing ?? false))).toEqual([true, false]);
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));

    // The commitments need 214 tokens (80 at most each) of 100: oversubscribed, shares floored to whole tokens.
    const { orders } = state.ieo;
    const tokens = Dec.sum([...orders.values()].map((order) => Dec.parse(order.tokens)));
    expect(tokens.lte(Dec.parse('100'))).toBe(true);
    for (const order of orders.values())
      expect(Dec.parse(order.spent).add(Dec.parse(order.refund)).eq(Dec.parse(order.amount))).toBe(true);
    // Every USDT unit is with a user or in the sale's proceeds; every token with a user or the sale.
    const project = systemAccount(ieoProjectWallet(1));
    const usdt = Dec.sum(USERS.map((userId) => available(state, userAccount(userId, 'spot'), 'USDT')));
    expect(usdt.add(available(state, project, 'USDT')).toString()).toBe('300');
    const delivered = Dec.sum(
      USERS.map(
        (userId) =>
          state.ledger.accounts.get(accountMapKeyOf(userAccount(userId, 'ieo'), 'LCH'))?.creditsPosted ??
          Dec.ZERO,
      ),
    );
    expect(delivered.add(available(state, project, 'LCH')).toString()).toBe('105');
    // The inviter's rebate, paid from the proceeds at distribution.
    expect(available(state, userAccount(1, 'spot'), 'USDT').gt(Dec.parse('80'))).toBe(true);
    expect(state.ieo.sales.get(1)!.state).toBe('ended');
  });

  it('refuses malformed commands as values, and an edit once the terms are frozen', () => {
    const state = machine.initialState();
    runAll(state, setup);
    const refused = runAll(
      state,
      [
        {
          kind: 'ieoSale',
          at: AT,
          projectId: 2,
          terms: { ...terms, total: 'x' },
          salt: 's',
          fundWhy: 'a',
          defundWhy: '',
        },
        {
          kind: 'ieoSubscribe',
          at: AT,
          userId: 1,
          projectId: 1,
          paycoin: 'USDT',
          amount: 5 as unknown as string,
        },
        { kind: 'ieoAdvance', at: AT, projectId: 9 },
        { kind: 'ieoCancelSale', at: AT, projectId: 9 },
        later,
        // The creation again: its funding id was used, so it would move nothing; refused, changing nothing.
        later,
        { kind: 'ieoAdvance', at: AT + 60_000, projectId: 1 },
        { kind: 'ieoSale', at: AT + 60_000, projectId: 1, terms, salt: 's', fundWhy: 'b', defundWhy: 'c' },
        { kind: 'ieoCancelSale', at: AT + 60_000, projectId: 1 },
      ],
      setup.length,
    );
    expect(refused.map((answer) => (answer.ok ? 'ok' : answer.error))).toEqual([
      'ledger.invalidTransfer',
      'ledger.invalidTransfer',
      'ieo.projectNotFound',
      'ieo.projectNotFound',
      'ok',
      'ledger.idConflict',
      'ok',
      'ieo.termsFrozen',
      'ieo.termsFrozen',
    ]);
  });
});
