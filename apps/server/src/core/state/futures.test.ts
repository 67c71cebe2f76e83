import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/index.ts';
import { step } from '../sequencer/index.ts';
import { takeCommands } from './command-stream.ts';
import { TEST_CONTRACTS } from './command-stream-modules.ts';
import type { MoneyCommand, MoneyResult } from './index.ts';
import { moneyMachine } from './machine.ts';
import type { MoneyState } from './money-state.ts';
import { captureMoneyState, decodeMoneyState, moneyStateHash } from './snapshot-codec.ts';

/**
 * The futures commands' shapes: a malformed one is refused as a value and
 * changes nothing; the futures part (books, orders, positions, triggers,
 * marks, next ids) survives a snapshot and decides the next commands alike;
 * a snapshot begun before a command reads the rows as they were, though the
 * command changes them in place.
 * The equivalence with the engine is modules/futures/state-equivalence.test.ts;
 * replay.test.ts carries futures in its seeded stream.
 */

const machine = moneyMachine();
const AT = Date.UTC(2026, 10, 26);
const INVALID = { ok: false, error: 'ledger.invalidTransfer', params: { field: 'command' } };
const user = (id: number) => ({ owner: String(id), userId: id, account: userAccount(id, 'futures') });
const house = { owner: 'house', userId: 0, account: systemAccount('market_maker') };

function run(state: MoneyState, commands: readonly MoneyCommand[], from = 0): MoneyResult[] {
  let seq = from;
  return commands.map((command) => step(machine, state, command, ++seq).result);
}

function snapshotOf(state: MoneyState): Uint8Array {
  const capture = captureMoneyState(state);
  const parts: Uint8Array[] = [];
  for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
  return Buffer.concat(parts);
}

/**
 * Applies each command with a snapshot begun just before it, read to the end after it: the snapshot must hold
 * the state before the command. Answers the last sequence, plus how many commands changed the state (the
 * seeded stream's count; the hand-written run's commands each change it).
 */
function expectCapturesExact(state: MoneyState, commands: readonly MoneyCommand[], from: number): number {
  let seq = from;
  let unchanged = 0;
  for (const command of commands) {
    const before = moneyStateHash(state);
    const capture = captureMoneyState(state);
    step(machine, state, command, ++seq);
    const parts: Uint8Array[] = [];
    for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
    expect(moneyStateHash(decodeMoneyState(Buffer.concat(parts))), `${seq}: ${command.kind}`).toBe(before);
    if (moneyStateHash(state) === before) unchanged += 1;
  }
  return seq - unchanged;
}

const setup: MoneyCommand[] = [
  { kind: 'futuresContract', at: AT, contract: TEST_CONTRACTS[0]!, fundingSlot: 0 },
  { kind: 'futuresMark', at: AT, coin: 'BTC', price: '100', fundingSlot: 0 },
  {
    kind: 'transfer',
    at: AT,
    batch: [1, 2].map((id) => ({
      id: `fund:${id}`,
      debit: systemAccount('treasury'),
      credit: userAccount(id, 'futures'),
      asset: 'USDT',
      amount: Dec.parse('10000'),
      code: 'test_funding',
    })),
  },
];

/** The house's ask, user 1's isolated market buy with a TP, user 2's resting cross bid. */
const OPENS: MoneyCommand[] = [
  {
    kind: 'futuresOpen',
    at: AT + 1,
    trader: house,
    contractId: 1,
    side: 'sell',
    style: 'limit',
    price: '100.5',
    number: '50',
    lever: 50,
    tdMode: 'cross',
  },
  {
    kind: 'futuresOpen',
    at: AT + 2,
    trader: user(1),
    contractId: 1,
    side: 'buy',
    style: 'market',
    number: '5',
    lever: 10,
    tdMode: 'lsolate',
    profitPrice: '120',
  },
  {
    kind: 'futuresOpen',
    at: AT + 3,
    trader: user(2),
    contractId: 1,
    side: 'buy',
    style: 'limit',
    price: '99',
    number: '3',
    lever: 5,
    tdMode: 'cross',
  },
];

/** The house's bid (self-trade prevention cancels it), a mark past user 1's TP, user 2's late cancel. */
const NEXT: MoneyCommand[] = [
  {
    kind: 'futuresOpen',
    at: AT + 4,
    trader: house,
    contractId: 1,
    side: 'buy',
    style: 'limit',
    price: '120',
    number: '10',
    lever: 50,
    tdMode: 'cross',
  },
  { kind: 'futuresMark', at: AT + 5, coin: 'BTC', price: '121', fundingSlot: 0 },
  { kind: 'futuresCancel', at: AT + 6, owner: '2', orderId: 3 },
];

describe('futures commands on the money state', () => {
  it('refuses malformed commands as values, changing nothing', () => {
    const state = machine.initialState();
    run(state, setup);
    const before = moneyStateHash(state);
    const open = {
      kind: 'futuresOpen',
      at: AT,
      trader: user(1),
      contractId: 1,
      side: 'buy',
      style: 'limit',
      price: '99',
      number: '2',
      lever: 10,
      tdMode: 'cross',
    } as const;
    const malformed = [
      { ...open, side: 'up' },
      { ...open, tdMode: 'hedge' },
      { ...open, lever: 2.5 },
      { ...open, number: 2 },
      { ...open, trader: { owner: '1', userId: 1, account: { owner: 1, wallet: 'nowhere' } } },
      { ...open, trader: null },
      { kind: 'futuresClose', at: AT, userId: 1, positionId: 'a', number: null },
      { kind: 'futuresCancel', at: AT, owner: 1, orderId: 1 },
      { kind: 'futuresMark', at: AT, coin: 'BTC', price: '-1', fundingSlot: 0 },
      { kind: 'futuresMark', at: AT, coin: 'BTC', price: '100', fundingSlot: 'now' },
      { kind: 'futuresContract', at: AT, contract: { ...TEST_CONTRACTS[0]!, levers: 'all' }, fundingSlot: 0 },
      { kind: 'futuresContract', at: AT, contract: { ...TEST_CONTRACTS[0]!, gas: 'free' }, fundingSlot: 0 },
      { kind: 'futuresSetTrigger', at: AT, userId: 1, positionId: 1, profitPrice: 5 },
    ] as unknown as MoneyCommand[];
    for (const result of run(state, malformed, 10)) expect(result).toEqual(INVALID);
    expect(run(state, [{ ...open, contractId: 9 }], 30)).toEqual([
      { ok: false, error: 'futures.contractNotFound' },
    ]);
    expect(run(state, [{ ...open, lever: 7 }], 31)).toEqual([
      { ok: false, error: 'futures.leverNotAllowed', params: { levers: '1, 5, 10, 20, 50' } },
    ]);
    expect(moneyStateHash(state)).toBe(before);
  });

  it('keeps books, orders, positions and triggers through a snapshot', () => {
    const state = machine.initialState();
    const trades: MoneyCommand[] = [...setup, ...OPENS];
    expect(run(state, trades).every((result) => result.ok)).toBe(true);
    expect(state.futures.book.positions.size).toBe(2);
    expect(state.futures.book.triggers.size).toBe(1);
    const loaded = decodeMoneyState(snapshotOf(state));
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
    // The same next commands on both: the house's bid (it meets its own ask: self-trade prevention cancels it),
    // a mark past user 1's TP (the close sells into user 2's bid, filling it), then user 2's cancel comes late.
    const next = NEXT;
    const live = run(state, next, 100);
    expect(run(loaded, next, 100)).toEqual(live);
    expect(live[2]).toEqual({ ok: false, error: 'futures.entrustNotOpen' });
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
    expect([...state.futures.book.triggers.values()]).toEqual([]);
    const positions = [...state.futures.book.positions.values()];
    expect(positions.find((row) => row.owner === '1')?.number).toBe('2');
    expect(positions.find((row) => row.owner === '2')?.number).toBe('3');
  });

  it("keeps no order's hold once it ends, and no order's or fill's transfer for retries", () => {
    // Their ids derive from the order's id (futures-legs.ts): the ledger keeps none in the retry window, so an
    // ended order's closed hold would stay for good unless the state forgot it.
    const state = machine.initialState();
    run(state, [...setup, ...OPENS]);
    const futuresIds = (ids: Iterable<string>) => [...ids].filter((id) => id.startsWith('futures:'));
    // User 1's market buy (order 2) filled and ended; user 2's bid (order 3) rests, its hold open.
    expect(futuresIds(state.ledger.holds.keys())).toEqual(['futures:3:hold']);
    expect(state.ledger.holds.get('futures:3:hold')?.state).toBe('open');
    run(state, NEXT, 100);
    // The mark fired user 1's TP, whose close filled user 2's bid: every order has ended.
    expect(futuresIds(state.ledger.holds.keys())).toEqual([]);
    expect(futuresIds(state.ledger.transfers.keys())).toEqual([]);
    for (const id of [1, 2])
      expect(state.ledger.accounts.find(userAccount(id, 'futures'), 'USDT')?.debitsPending.toString()).toBe(
        '0',
      );
  });

  it('reads a snapshot begun before each futures command as the state was, whatever the command changes', () => {
    // Futures' rows are changed in place: each change must come after `beforeChange`, or a snapshot being read
    // while commands go on would hold the row as a later command left it. Exact, command by command.
    // A hand-written run: a TP edited, another set and cancelled, one fired, an isolated liquidation, a funding round.
    const state = machine.initialState();
    const houseFunding: MoneyCommand = {
      kind: 'transfer',
      at: AT,
      batch: (['market_maker', 'insurance'] as const).map((account) => ({
        id: `fund:${account}`,
        debit: systemAccount('treasury'),
        credit: systemAccount(account),
        asset: 'USDT',
        amount: Dec.parse('1000000'),
        code: 'test_funding',
      })),
    };
    let seq = expectCapturesExact(state, [...setup, houseFunding, ...OPENS], 0);
    const mine = [...state.futures.book.positions.values()].find((row) => row.owner === '1')!;
    const trigger = { kind: 'futuresSetTrigger', at: AT + 4, userId: 1, positionId: mine.autoid } as const;
    seq = expectCapturesExact(
      state,
      [
        { ...trigger, triggerId: 1, profitPrice: '118' },
        { ...trigger, lossPrice: '80' },
        { kind: 'futuresCancelTrigger', at: AT + 4, userId: 1, triggerId: 2 },
        ...NEXT,
        { kind: 'futuresMark', at: AT + 7, coin: 'BTC', price: '85', fundingSlot: 0 },
        { kind: 'futuresMark', at: AT + 8, coin: 'BTC', price: '86', fundingSlot: 8 * 3_600_000 },
      ],
      seq,
    );
    expect(state.futures.book.triggers.size).toBe(0);
    expect([...state.futures.book.positions.values()].some((row) => row.owner === '1')).toBe(false);
    expect([...state.futures.book.lastFunding.values()]).toContain(8 * 3_600_000);
    const stream = machine.initialState();
    const commands = takeCommands({ seed: 11, users: 12, traders: 6, futures: true, referral: true }, 2500);
    let changed = 0;
    for (const [index, command] of commands.entries()) {
      if (command.kind.startsWith('futures'))
        changed += expectCapturesExact(stream, [command], index) - index;
      else step(machine, stream, command, index + 1);
    }
    // The seeded stream: fills, closes, house nettings, funding rounds among the 2,500 commands.
    expect(changed).toBeGreaterThan(40);
  });
});
