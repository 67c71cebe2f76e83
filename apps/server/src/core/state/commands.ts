import type { BookEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { AccountRef, TransferInput } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';

/**
 * The commands of the money state, what they answer and what they publish.
 * Every command carries `at`, the time the edge stamped on it (ms since the
 * epoch): the state never reads a clock. `id`, when given, makes the command
 * idempotent: a repeat answers the first result.
 */
interface CommandBase {
  id?: string;
  at: number;
}

/** A ledger batch: deposits, transfers, holds, posts and voids, all-or-nothing. */
export interface TransferCommand extends CommandBase {
  kind: 'transfer';
  batch: TransferInput[];
}

/** A spot pair's settings, as the pair row holds them; opening it again changes its fees and bounds. */
export interface PairConfig {
  /** `TRADE/MAIN`, e.g. `BTC/USDT`. */
  symbol: string;
  tradcoin: string;
  maincoin: string;
  priceAccuracy: number;
  amountAccuracy: number;
  minNumber: string;
  maxNumber: string;
  makerFee: string;
  takerFee: string;
}

export interface OpenPairCommand extends CommandBase {
  kind: 'openPair';
  pair: PairConfig;
}

export interface PlaceCommand extends CommandBase {
  kind: 'place';
  pair: string;
  /** The book's user id: the user id as text, or a house role. */
  owner: string;
  /** The ledger account that pays and receives. */
  account: AccountRef;
  /** The trader's bound email; none is refused (spec §5). */
  email: string | null;
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  /** Limit only, as typed. */
  price?: string;
  /** Base amount, as typed. */
  amount: string;
}

export interface CancelCommand extends CommandBase {
  kind: 'cancel';
  pair: string;
  owner: string;
  orderId: number;
}

export type MoneyCommand = TransferCommand | OpenPairCommand | PlaceCommand | CancelCommand;

/** What an order is after its command: resting in the book, or ended (filled or cancelled). */
export interface OrderOutcome {
  orderId: number;
  /** Base amount traded. */
  filled: string;
  open: boolean;
}

/** Plain data only: results are kept in the state (idempotency) and written in snapshots. */
export type MoneyResult =
  | { ok: true; transfers?: string[]; order?: OrderOutcome }
  | { ok: false; error: string; params?: Record<string, string | number> };

export type MoneyEvent =
  | { type: 'transfers'; transfers: NewTransfer[] }
  | { type: 'book'; pair: string; events: BookEvent[] };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON; amounts (Dec) as their decimal text. */
export function encodeCommand(command: MoneyCommand): Uint8Array {
  return encoder.encode(JSON.stringify(command));
}

/** The inverse of encodeCommand: the transfer amounts back to Dec. */
export function decodeCommand(payload: Uint8Array): MoneyCommand {
  const command = JSON.parse(decoder.decode(payload)) as MoneyCommand;
  if (command.kind === 'transfer') {
    for (const input of command.batch) {
      // The wire holds text where Dec was: parse it back in place (the object is fresh from JSON.parse).
      const wire = input as unknown as { amount?: string };
      if (wire.amount !== undefined) (input as { amount: Dec }).amount = Dec.parse(wire.amount);
    }
  }
  return command;
}
