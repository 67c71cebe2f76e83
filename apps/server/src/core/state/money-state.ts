import type { OrderBook, PairPrecision } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { AccountRef, TransferInput } from '../../ledger/index.ts';
import {
  applyBatch,
  batchShapeRefusal,
  type HoldEntry,
  isLedgerRefusal,
  type LedgerRefusal,
  type LedgerState,
  ledgerErrorOf,
  type Plan,
  type PlannedTransfer,
} from '../../ledger/plan.ts';
import { TrackedMap } from '../sequencer/index.ts';
import type { MoneyResult, PairConfig } from './commands.ts';
import { type CycleState, createCycleState } from './cycle.ts';
import { createFiatState, type FiatState } from './fiat-escrow.ts';
import { createFuturesMoney, type FuturesMoney } from './futures.ts';
import { createIeoState, type IeoState } from './ieo.ts';
import { LedgerAccounts } from './ledger-accounts.ts';
import { createReferralState, noteHalHoldings, type ReferralState } from './referral.ts';
import { DEFAULT_RETENTION, type RetentionPolicy, RetentionWindow } from './retention.ts';
import type { DailyWithdrawn, OpenWithdrawal } from './wallet-flows.ts';

/**
 * The whole money state in memory: every ledger account, every open hold,
 * the transfers still in the retry window, the spot pairs and their open
 * orders. Every map holds immutable values (a change puts a new object in),
 * except the accounts, whose totals the ledger changes in place after telling
 * the map (`beforeChange`): that is what lets a snapshot be read while
 * commands go on (TrackedMap).
 */
export interface MoneyState {
  ledger: LedgerState & {
    accounts: LedgerAccounts;
    holds: TrackedMap<string, HoldEntry>;
    transfers: TrackedMap<string, PlannedTransfer>;
  };
  /** The transfers the ledger still answers retries for (each the object `ledger.transfers` holds under its id). */
  transferIds: RetentionWindow<PlannedTransfer>;
  /** The first result of each command id still in the window. */
  answers: TrackedMap<string, MoneyResult>;
  answerIds: RetentionWindow;
  /** Few and small: a snapshot copies them at once. */
  pairs: Map<string, PairState>;
  /** Resting spot orders by id. */
  orders: TrackedMap<number, OpenOrder>;
  /** One book per pair, rebuilt from `orders` when a snapshot is loaded, never written in one. */
  books: Map<string, OrderBook>;
  /** The next spot order's id; also its time priority in the book. */
  nextOrderId: number;
  /** What fees in HAL and referral commissions read (referral.ts). */
  referral: ReferralState;
  /** Open cycle contracts and each coin's latest tick (cycle.ts). */
  cycle: CycleState;
  /** Flash convert (convert.ts): the next order's id, and each used quote's expiry until it passed. */
  convert: { nextOrderId: number; usedQuotes: Map<string, number> };
  /** Futures (futures.ts): modules/futures' books, open orders, positions, triggers and marks, and the next ids. */
  futures: FuturesMoney;
  /**
   * Withdrawals (wallet-flows.ts): the next one's id, those still open (not
   * completed or rejected) by id, and each user's and coin's room used on its
   * latest day of requests.
   */
  withdrawals: {
    nextId: number;
    open: TrackedMap<number, OpenWithdrawal>;
    daily: TrackedMap<string, DailyWithdrawn>;
  };
  /** Token launches (ieo.ts): the sales, their orders, the rebates owed. */
  ieo: IeoState;
  /** Fiat escrow (fiat-escrow.ts): the ads' amounts and holds, the open orders. */
  fiat: FiatState;
}

export interface PairState {
  config: PairConfig;
  precision: PairPrecision;
  makerFee: Dec;
  takerFee: Dec;
  /** The price of the pair's latest trade. */
  lastPrice: Dec | null;
}

/** A spot order in the book, what its hold reserved and has spent, and its fill totals. */
export interface OpenOrder {
  id: number;
  pair: string;
  owner: string;
  account: AccountRef;
  side: 'buy' | 'sell';
  /** Only limit orders rest; a market order lives for its own command. */
  style: 'limit' | 'market';
  /** Zero for a market order. */
  price: Dec;
  amount: Dec;
  remaining: Dec;
  /** Quote for a buy, base for a sell. */
  held: Dec;
  holdSpent: Dec;
  /** Quote traded for the base filled (which is amount − remaining). */
  dealMoney: Dec;
  /** Fees paid in the coin received, and in HAL (fee deduction). */
  fee: Dec;
  feeHal: Dec;
  /** The placing command's `at`. */
  placedAt: number;
}

/**
 * The order with new fill totals, written out field by field in the
 * interface's order (as every order is built, a snapshot's load included).
 * A spread with fields replaced, `{ ...order, remaining }`, over orders of
 * several shapes was 5 % of the replay in the fill step alone
 * (docs/core.md "Stop 38").
 */
export function withFillTotals(
  order: OpenOrder,
  totals: Pick<OpenOrder, 'remaining' | 'holdSpent' | 'dealMoney' | 'fee' | 'feeHal'>,
): OpenOrder {
  return {
    id: order.id,
    pair: order.pair,
    owner: order.owner,
    account: order.account,
    side: order.side,
    style: order.style,
    price: order.price,
    amount: order.amount,
    remaining: totals.remaining,
    held: order.held,
    holdSpent: totals.holdSpent,
    dealMoney: totals.dealMoney,
    fee: totals.fee,
    feeHal: totals.feeHal,
    placedAt: order.placedAt,
  };
}

export function createMoneyState(retention: RetentionPolicy = DEFAULT_RETENTION): MoneyState {
  return {
    ledger: { accounts: new LedgerAccounts(), holds: new TrackedMap(), transfers: new TrackedMap() },
    transferIds: new RetentionWindow(retention),
    answers: new TrackedMap(),
    answerIds: new RetentionWindow(retention),
    pairs: new Map(),
    orders: new TrackedMap(),
    books: new Map(),
    nextOrderId: 1,
    referral: createReferralState(),
    cycle: createCycleState(),
    convert: { nextOrderId: 1, usedQuotes: new Map() },
    futures: createFuturesMoney(),
    withdrawals: { nextId: 1, open: new TrackedMap(), daily: new TrackedMap() },
    ieo: createIeoState(),
    fiat: createFiatState(),
  };
}

/** What the account can spend now: posted credits − posted debits − held. */
export function available(state: MoneyState, ref: AccountRef, asset: string): Dec {
  const account = state.ledger.accounts.find(ref, asset);
  if (!account) return Dec.ZERO;
  return account.creditsPosted.sub(account.debitsPosted).sub(account.debitsPending);
}

/**
 * Applies a ledger batch with the ledger's own rules (`applyBatch`), or
 * answers its refusal having changed nothing. `shapeChecked` batches (built
 * by the state itself) skip the input checks and the batch length bound.
 */
export function tryApplyTransfers(
  state: MoneyState,
  batch: readonly TransferInput[],
  at: number,
  seq: number,
  shapeChecked = false,
): Plan | LedgerRefusal {
  const badShape = shapeChecked ? null : batchShapeRefusal(batch);
  if (badShape) return badShape;
  const plan = applyBatch(state.ledger, batch, at);
  if (isLedgerRefusal(plan)) return plan;
  for (const transfer of plan.remembered) state.transferIds.add(transfer, seq);
  noteHalHoldings(state.referral, plan.newTransfers);
  return plan;
}

/** `tryApplyTransfers`, its refusal thrown as the ledger's LedgerError. */
export function applyTransfers(
  state: MoneyState,
  batch: readonly TransferInput[],
  at: number,
  seq: number,
  shapeChecked = false,
): Plan {
  const plan = tryApplyTransfers(state, batch, at, seq, shapeChecked);
  if (isLedgerRefusal(plan)) throw ledgerErrorOf(plan);
  return plan;
}

/**
 * Forgets what fell out of the retry windows at `seq`: command answers, and
 * transfers with their closed holds. An open hold's transfer is kept (it
 * stays in the window until its hold closes), so a retry can never open a
 * second hold under the same id.
 */
export function expireWindows(state: MoneyState, seq: number): void {
  const { transfers, holds } = state.ledger;
  state.transferIds.expire(seq, ({ id, type }) => {
    // Only a pending transfer has a hold: the others cost one delete, no lookup.
    if (type === 'pending') {
      const hold = holds.get(id);
      if (hold?.state === 'open') return false;
      if (hold) holds.delete(id);
    }
    transfers.delete(id);
    return true;
  });
  state.answerIds.expire(seq, (id) => state.answers.delete(id));
}
