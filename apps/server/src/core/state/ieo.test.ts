import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { accountMapKeyOf, ieoProjectWallet, systemAccount, userAccount } from '../../ledger/index.ts';
import { step } from '../sequencer/index.ts';
import { takeCommands } from './command-stream.ts';
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

/** An FCFS sale of whole tokens in three daily tranches from its end, and user 1 buying 10 of them. */
const fcfsBought: MoneyCommand[] = [
  {
    kind: 'ieoSale',
    at: AT,
    projectId: 2,
    terms: { ...terms, coin: 'LFC', mode: 'fcfs', gift: '0', rebate: '0' },
    salt: 's',
    fundWhy: 'create',
    defundWhy: '',
  },
  { kind: 'ieoSubscribe', at: AT + 1_000, userId: 1, projectId: 2, paycoin: 'USDT', amount: '3.7' },
];

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

  it('releases no tranche while its sale can still be cancelled, so a cancel always has the tokens to take back', () => {
    const state = machine.initialState();
    runAll(state, [...setup, ...fcfsBought]);
    const ieoWallet = userAccount(1, 'ieo');
    // The 10 tokens bought are in the IEO wallet, all held by their tranches.
    expect(state.ledger.accounts.get(accountMapKeyOf(ieoWallet, 'LFC'))!.debitsPending.toString()).toBe('10');
    // Past the window's end and the first tranche's time, but no ieoAdvance yet: the sale is still open.
    const released = runAll(state, [{ kind: 'ieoRelease', at: AT + 120_000 }], 9)[0]!;
    expect(released.ok && released.transfers).toEqual([]);
    expect(available(state, userAccount(1, 'spot'), 'LFC').toString()).toBe('0');
    // Before the fix the release paid the first tranche out and this cancel threw (ledger.holdClosed).
    const [cancelled] = runAll(state, [{ kind: 'ieoCancelSale', at: AT + 120_000, projectId: 2 }], 10);
    expect(cancelled!.ok).toBe(true);
    expect(available(state, ieoWallet, 'LFC').toString()).toBe('0');
    expect(available(state, userAccount(1, 'spot'), 'USDT').toString()).toBe('100');
  });

  it('releases a tranche once its sale has ended', () => {
    const state = machine.initialState();
    runAll(state, [...setup, ...fcfsBought]);
    runAll(
      state,
      [
        { kind: 'ieoAdvance', at: AT + 120_000, projectId: 2 },
        { kind: 'ieoRelease', at: AT + 120_000 },
      ],
      setup.length + fcfsBought.length,
    );
    expect(state.ieo.sales.get(2)!.state).toBe('ended');
    // 10 tokens in three tranches (3, 3, 4): the first released at the window's end.
    expect(available(state, userAccount(1, 'spot'), 'LFC').toString()).toBe('3');
  });

  it('applies the seeded stream of every kind of command without throwing', () => {
    const state = machine.initialState();
    const commands = takeCommands(
      {
        seed: 11,
        users: 60,
        traders: 12,
        referral: true,
        cycle: true,
        futures: true,
        ieo: true,
        fiat: true,
        walletFlows: true,
      },
      3000,
    );
    expect(() => runAll(state, commands)).not.toThrow();
  });
});
