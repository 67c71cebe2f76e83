import { type BookCommand, type BookEvent, ReferenceBook } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { accountMapKey } from '../../ledger/accounts.ts';
import type { TransferInput } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import { ReferenceLedger } from '../../ledger/reference-ledger.ts';
import { step } from '../sequencer/index.ts';
import { takeCommands } from './command-stream.ts';
import { type MoneyEvent, type MoneyResult, moneyMachine } from './index.ts';

/**
 * The money state against naive references: the ledger's reference ledger
 * (bigint units, step by step, undo on refusal) and the matching package's
 * reference book. For every command of a seeded stream, a ledger batch must
 * get the reference's verdict; a spot command's book events must be the
 * reference book's for the same book command, and the transfers it produced
 * must all be accepted by the reference ledger, as must a referral payout
 * sweep's. Money is conserved per asset
 * and clearing is empty after every command. At the end every account's
 * totals equal the reference's.
 */
const COMMANDS = 20_000;
const SEED = 7_031_977;
const machine = moneyMachine();

describe('money state against naive references', () => {
  it(`agrees command by command (${COMMANDS} commands, seed ${SEED})`, () => {
    const state = machine.initialState();
    const ledger = new ReferenceLedger();
    const books = new Map<string, ReferenceBook>();
    const answered = new Map<string, MoneyResult>();
    const commands = takeCommands({ seed: SEED, users: 300, traders: 30, referral: true }, COMMANDS);
    let trades = 0;
    commands.forEach((command, index) => {
      const { result, events } = step(machine, state, command, index + 1);
      const label = `command ${index + 1} (${command.kind})`;
      if (command.id !== undefined && answered.has(command.id)) {
        expect(result, label).toEqual(answered.get(command.id));
        expect(events, label).toEqual([]);
        return;
      }
      if (command.id !== undefined) answered.set(command.id, result);
      if (command.kind === 'openPair') {
        books.set(command.pair.symbol, new ReferenceBook(stateBookPrecision(command.pair.symbol)));
      } else if (command.kind === 'transfer') {
        expect(result.ok ? 'ok' : result.error, label).toBe(ledger.execute(command.batch));
      } else if (result.ok && 'pair' in command) {
        const bookEvents = bookEventsOf(events);
        const reference = books.get(command.pair)!;
        expect(bookEvents, label).toEqual(reference.apply(bookCommandOf(command, bookEvents)));
        trades += bookEvents.filter((event) => event.type === 'trade').length;
        expect(ledger.execute(transfersOf(events).map(inputOf)), label).toBe('ok');
      } else if (command.kind === 'referralPayout') {
        // The commissions accrued since the last sweep, credited from the fee account.
        expect(ledger.execute(transfersOf(events).map(inputOf)), label).toBe('ok');
      }
      if (index % 500 === 0) expectConserved(state, label);
    });
    expect(trades).toBeGreaterThan(1_000);
    for (const [key, account] of state.ledger.accounts) {
      const expected = ledger.accounts.get(key);
      expect(
        [account.debitsPosted, account.creditsPosted, account.debitsPending, account.creditsPending].map(
          (total) => total.units,
        ),
        key,
      ).toEqual([
        expected?.debitsPosted,
        expected?.creditsPosted,
        expected?.debitsPending,
        expected?.creditsPending,
      ]);
    }
    expect(state.ledger.accounts.size).toBe(ledger.accounts.size);

    function stateBookPrecision(symbol: string) {
      return state.pairs.get(symbol)!.precision;
    }
  });
});

function bookEventsOf(events: MoneyEvent[]): BookEvent[] {
  return events.flatMap((event) => (event.type === 'book' ? event.events : []));
}

function transfersOf(events: MoneyEvent[]): NewTransfer[] {
  return events.flatMap((event) => (event.type === 'transfers' ? event.transfers : []));
}

/** The book command the state gave its book, read back from what the book said it accepted. */
function bookCommandOf(
  command: Extract<ReturnType<typeof takeCommands>[number], { kind: 'place' | 'cancel' | 'cancelAll' }>,
  events: BookEvent[],
): BookCommand {
  if (command.kind === 'cancel')
    return { kind: 'cancel', orderId: String(command.orderId), userId: command.owner };
  if (command.kind === 'cancelAll') return { kind: 'cancelAll', userId: command.owner };
  const accepted = events.find((event) => event.type === 'accepted');
  if (!accepted) throw new Error('a placed order the book did not accept');
  const common = {
    orderId: accepted.orderId,
    userId: accepted.userId,
    sequence: accepted.sequence,
    amount: accepted.amount,
  };
  if (accepted.orderType === 'limit')
    return { ...common, kind: 'limit', side: accepted.side, price: accepted.price! };
  return accepted.side === 'buy'
    ? { ...common, kind: 'market', side: 'buy', quoteBudget: accepted.quoteBudget! }
    : { ...common, kind: 'market', side: 'sell' };
}

function inputOf(transfer: NewTransfer): TransferInput {
  const { id, code, reference } = transfer;
  if (transfer.type === 'post_pending')
    return {
      id,
      code,
      reference,
      type: 'post_pending',
      pendingId: transfer.pendingId!,
      amount: transfer.amount,
    };
  if (transfer.type === 'void_pending')
    return { id, code, reference, type: 'void_pending', pendingId: transfer.pendingId! };
  const { type, debit, credit, asset, amount } = transfer;
  return { id, code, reference, type, debit, credit, asset, amount };
}

/** Every asset's posted and pending totals sum to zero; clearing holds nothing between commands. */
function expectConserved(state: ReturnType<typeof machine.initialState>, label: string): void {
  const sums = new Map<string, bigint>();
  for (const account of state.ledger.accounts.values()) {
    const posted = account.creditsPosted.sub(account.debitsPosted).units;
    const pending = account.creditsPending.sub(account.debitsPending).units;
    sums.set(`${account.key.asset} posted`, (sums.get(`${account.key.asset} posted`) ?? 0n) + posted);
    sums.set(`${account.key.asset} pending`, (sums.get(`${account.key.asset} pending`) ?? 0n) + pending);
    if (account.key.wallet === 'clearing') {
      const clearing = accountMapKey(account.key);
      expect(account.creditsPosted.sub(account.debitsPosted), `${label}: ${clearing}`).toEqual(Dec.ZERO);
    }
  }
  for (const [total, sum] of sums) expect(sum, `${label}: ${total}`).toBe(0n);
}
