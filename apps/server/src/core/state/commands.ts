import type { BookEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { RuleError } from '@halyard/rules';
import type { AccountRef, CustodyWallet, TransferInput, UserWallet } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import type { BalanceAdjustment } from './adjustments.ts';
import type { ConvertQuote } from './convert.ts';
import type { CycleOpenCommand, CycleSettleCommand } from './cycle.ts';
import type { CycleOrderRecord, CycleSettledAtClose } from './cycle-rules.ts';
import type { FiatCommand, FiatRowOp } from './fiat-escrow.ts';
import type { FuturesMoneyCommand, FuturesOutcome, FuturesRowsEvent } from './futures.ts';
import type { IeoCommand, IeoRowOp } from './ieo.ts';
import type { CommissionRow } from './referral-rules.ts';
import type { DepositCredit, WithdrawalChecks, WithdrawalStep } from './wallet-flows.ts';
import type { WalletMove } from './wallet-moves.ts';

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
  /**
   * The trade coin's index price the edge read when it took the order, if it
   * knows one: the latest price while the pair has had no trade (as
   * modules/spot falls back to it). The state reads no feed.
   */
  indexPrice?: string;
}

export interface CancelCommand extends CommandBase {
  kind: 'cancel';
  pair: string;
  owner: string;
  orderId: number;
}

/** Cancels every open order of the owner in the pair, oldest first (as modules/spot's cancelAll, per pair). */
export interface CancelAllCommand extends CommandBase {
  kind: 'cancelAll';
  pair: string;
  owner: string;
}

/**
 * A user's referral profile as modules/referral reads it: the inviter (level
 * 2 is the inviter's own inviter), the kickback rate, fee deduction in HAL
 * and every ID number submitted for KYC. The edge sends it whenever one of
 * them changes (a bind, a choice, a KYC submission).
 */
export interface ReferralUserCommand extends CommandBase {
  kind: 'referralUser';
  userId: number;
  parentId: number | null;
  feeDeduction: boolean;
  kickbackRate: string;
  idNumbers: string[];
}

/** The operator's referral settings: the HAL fee discount and the market makers (who neither earn nor bring commissions). */
export interface ReferralSettingsCommand extends CommandBase {
  kind: 'referralSettings';
  halDiscount: string;
  marketMakers: number[];
}

/** Index prices by coin (in the index's quote coin) as the edge read them on a tick; null: the index lost the coin. */
export interface IndexPricesCommand extends CommandBase {
  kind: 'indexPrices';
  prices: Record<string, string | null>;
}

/**
 * The referral payout sweep (every REFERRAL_PAYOUT_INTERVAL_MS, stamped by
 * the edge's clock as `indexPrices` is): credits the commission rows accrued
 * unpaid, oldest first, in batches of REFERRAL_PAYOUT_BATCH, as
 * modules/referral/payouts.ts does from SQL.
 */
export interface ReferralPayoutCommand extends CommandBase {
  kind: 'referralPayout';
}

/**
 * A move between a user's own wallets (`/account/contractTransfer`, the c2c
 * route): modules/wallet's checks and transfer (wallet-moves.ts). The edge
 * checks the coin is known and the funds are not frozen, and stamps the
 * transfer's id (`transfer:<uuid>`).
 */
export interface WalletMoveCommand extends CommandBase, WalletMove {
  kind: 'walletMove';
  transferId: string;
}

/** The demo faucet's grant (`/account/demoFaucet`); the edge checks the freeze and stamps the grant's uuid. */
export interface FaucetCommand extends CommandBase {
  kind: 'faucet';
  grantId: string;
  userId: number;
  wallet: UserWallet;
}

/**
 * Flash convert at a quote (`/flash/addFlash`): modules/convert's checks, legs
 * and order (convert.ts). The edge reads the quote the user names from the
 * quote table (null: none has that id), checks the freeze, and stamps `at`.
 */
export interface ConvertCommand extends CommandBase {
  kind: 'convert';
  userId: number;
  quote: ConvertQuote | null;
  /** What the user consumes, as typed. */
  amount: string;
}

/**
 * A deposit's credit after its confirmations (the chain watcher): custody →
 * the user's spot, under `deposit:<depositId>:<round>`, so a repeat credits
 * nothing (wallet-flows.ts). The watcher keeps finding and recording
 * deposits at the edge.
 */
export interface DepositCreditedCommand extends CommandBase, DepositCredit {
  kind: 'depositCredited';
}

/** A reorg took a credited deposit back: its credit in `round` is reversed (wallet-flows.ts). */
export interface DepositReversedCommand extends CommandBase, DepositCredit {
  kind: 'depositReversed';
}

/**
 * `/account/sendCoinOrder`: the money checks on the state's balance and the
 * hold (wallet-flows.ts); the state keeps each user's room of the day. The
 * edge reads the coin's terms and the user's access, makes the checks that read other data (the
 * address saved, the lock, the freeze, the fund password) and stamps their
 * refusal, if any: the module makes them after the money checks.
 */
export interface WithdrawalRequestedCommand extends CommandBase, Omit<WithdrawalChecks, 'withdrawnToday'> {
  kind: 'withdrawalRequested';
  userId: number;
  coin: string;
  chainId: number;
  custody: CustodyWallet;
  /** The saved address, checksummed, as the row keeps it. */
  savedAddress: string;
  edgeRefusal: RuleError | null;
}

/** An operator's review of a withdrawal in review (the wallet's and four-eyes' approve, reject, hold, lift). */
export interface WithdrawalReviewedCommand extends CommandBase {
  kind: 'withdrawalReviewed';
  withdrawalId: number;
  decision: 'approve' | 'reject' | 'hold' | 'releaseHold';
  /** The operator's name, as the row and the wallet's audit log keep it. */
  operator: string;
  /** Needed to reject, hold or lift a hold. */
  reason: string;
  /** The approval's audit details (a four-eyes release names its request and first approver). */
  details?: Record<string, unknown>;
}

/**
 * What the sender saw of a withdrawal it had been handed (wallet-flows.ts):
 * signed and recorded (`sent`, before it broadcasts), set aside for an
 * operator (`flagged`), its transaction mined and confirmed (`mined`), or
 * none can land any more (`failed`: reverted, cancelled, refunded).
 */
export interface WithdrawalOutcomeCommand extends CommandBase {
  kind: 'withdrawalOutcome';
  withdrawalId: number;
  /** The step the sender saw it in: it moves on only from there. */
  from: WithdrawalStep;
  outcome: 'sent' | 'flagged' | 'mined' | 'failed';
  /** Sent: the transaction signed; mined: the one the chain mined. */
  tx?: { hash: string; raw: string; nonce: number; hotAddress: string };
  /** Flagged, failed: why. */
  reason?: string;
  /** When an operator did it (resend, cancel, refund): the wallet's audit entry. */
  audit?: OperatorAudit | null;
}

/** An operator's balance adjustment after its second signature (the approvals module's request id). */
export interface AdjustCommand extends CommandBase {
  kind: 'adjust';
  requestId: number;
  adjustment: BalanceAdjustment;
}

export type MoneyCommand =
  | TransferCommand
  | OpenPairCommand
  | PlaceCommand
  | CancelCommand
  | CancelAllCommand
  | ReferralUserCommand
  | ReferralSettingsCommand
  | IndexPricesCommand
  | ReferralPayoutCommand
  | CycleOpenCommand
  | CycleSettleCommand
  | WalletMoveCommand
  | FaucetCommand
  | ConvertCommand
  | FuturesMoneyCommand
  | IeoCommand
  | FiatCommand
  | DepositCreditedCommand
  | DepositReversedCommand
  | WithdrawalRequestedCommand
  | WithdrawalReviewedCommand
  | WithdrawalOutcomeCommand
  | AdjustCommand;

/** What an order is after its command: resting in the book, or ended (filled or cancelled). */
export interface OrderOutcome {
  orderId: number;
  /** Base amount traded. */
  filled: string;
  open: boolean;
}

/** Plain data only: results are kept in the state (idempotency) and written in snapshots. */
export type MoneyResult =
  | {
      ok: true;
      transfers?: string[];
      order?: OrderOutcome;
      orders?: OrderOutcome[];
      convertOrderId?: number;
      /** A futures command: the orders, positions and triggers the engine answers. */
      futures?: FuturesOutcome;
      /** `ieoSubscribe`: the order the subscription made or added to. */
      ieoOrderId?: number;
      /** `ieoSale` on an open sale: cancelled instead (its terms are frozen). */
      ieoCancelled?: boolean;
      /** `ieoAdvance` (or `ieoSale`) left a commit-mode sale distributing: the edge sends `ieoAdvance` again. */
      ieoDistributing?: boolean;
      /** `fiatOpen`: the order opened. */
      fiatOrderId?: number;
      withdrawalId?: number;
      /** `referralPayout`: the commission rows it credited. */
      commissionsPaid?: number;
    }
  | { ok: false; error: string; params?: Record<string, string | number> };

/** Spec §4 spot order states, as the spot tables store them. */
export type SpotOrderState = 'unfilled' | 'partial' | 'filled' | 'cancelled' | 'partially_cancelled';

/**
 * A spot order as its row stands after a command: everything the spot
 * tables keep of it, amounts as decimal text (events are plain data: they
 * cross to a worker). A fee paid in HAL is in `feeHal`, not in `fee`.
 */
export interface SpotOrderRecord {
  orderId: number;
  pair: string;
  owner: string;
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  /** The limit price; null for a market order. */
  price: string | null;
  amount: string;
  unfilled: string;
  /** What the hold reserved (quote for a buy, base for a sell), and what trades have spent of it. */
  held: string;
  holdSpent: string;
  /** Base filled, quote it traded for, fee in the coin received (base for a buy, quote for a sell). */
  dealAmount: string;
  dealMoney: string;
  fee: string;
  feeHal: string;
  state: SpotOrderState;
  cancelReason: string | null;
  /** The placing command's `at`, and the `at` of the latest command that changed the order. */
  placedAt: number;
  updatedAt: number;
}

/** A spot trade as its row reads. */
export interface SpotTradeRecord {
  pair: string;
  /** The trade's ledger id (`spot:<taker>:t<n>`), which its legs and fees are named after. */
  tradeId: string;
  makerOrderId: number;
  takerOrderId: number;
  takerSide: 'buy' | 'sell';
  price: string;
  amount: string;
  quoteAmount: string;
  /** Each side's fee, in the coin it received (the buyer's in the trade coin, the seller's in the main coin), or in HAL. */
  buyerFee: string;
  sellerFee: string;
  buyerFeeCoin: string;
  sellerFeeCoin: string;
  /** The command's `at`. */
  at: number;
}

/** A convert order as its row reads: amounts as decimal text, `at` the command's. */
export interface ConvertOrderRecord {
  orderId: number;
  userId: number;
  quoteId: string;
  from: string;
  to: string;
  consumed: string;
  received: string;
  rate: string;
  at: number;
}

/** The wallet's audit entry of an operator's step on a withdrawal. */
export interface OperatorAudit {
  operator: string;
  action: string;
  details: Record<string, unknown>;
}

/** A new withdrawal's row as inserted (amounts as decimal text, `at` the command's). */
export interface WithdrawalRecord {
  id: number;
  userId: number;
  coin: string;
  chainId: number;
  address: string;
  amount: string;
  fee: string;
  state: 'review' | 'approved';
  at: number;
}

/**
 * A withdrawal moved on: its row's new fields (`updated_at` is `at`), from
 * the step it was in; `hold`: an operator's hold put on (or null: lifted);
 * the audit entry, if an operator did it.
 */
export interface WithdrawalMove {
  id: number;
  from: WithdrawalStep;
  patch: {
    state?: 'approved' | 'broadcast' | 'flagged' | 'completed' | 'rejected';
    reason?: string | null;
    decided_by?: string;
    tx_hash?: string;
    raw_tx?: string;
    nonce?: number;
    hot_address?: string;
  };
  hold?: { reason: string; by: string; at: number } | null;
  audit: OperatorAudit | null;
  at: number;
}

/**
 * What a command published, in order. `transfers`: the ledger transfers it
 * added. `book`: the book's own events. `spotOrderAccepted`: the new order,
 * as its row stands after the command (matched, ended or resting). `spotTrade`:
 * each trade, in the book's order. `spotOrderUpdated`: each other order the
 * command changed, as its row stands after it.
 * The spot events are what modules/spot/projection.ts writes.
 * `referralCommissions`: the commission rows of the command's fees, unpaid;
 * `referralPaid`: the fee legs of the rows one batch of a `referralPayout`
 * credited, oldest first (its transfers in the `transfers` before it), at its time; both what
 * modules/referral/projection.ts writes.
 * `cycleOrderOpened`: a cycle order's row as accepted; `cycleSettled`: a
 * settlement chunk's rows by close (cycle.ts), what modules/cycle/projection.ts writes.
 * `convertOrder`: a flash convert's order row (its quote is used at `at`),
 * what modules/convert/projection.ts writes.
 * `depositCredited`, `depositReversed`, `withdrawalRequested`, `withdrawalMoved`: the deposit
 * and withdrawal rows (wallet-flows.ts), what modules/wallet/projection.ts
 * writes; `adjusted`: an adjustment's request executed, what
 * modules/approvals/projection.ts writes.
 * `indexPrices`: the prices an `indexPrices` command set (not those it
 * forgot), at its time: what market/kline-writer.ts charts as zero-volume
 * prints of the cycle and futures markets.
 */
export type MoneyEvent =
  | { type: 'transfers'; transfers: NewTransfer[] }
  | { type: 'book'; pair: string; events: BookEvent[] }
  | { type: 'spotOrderAccepted'; order: SpotOrderRecord }
  | { type: 'spotTrade'; trade: SpotTradeRecord }
  | { type: 'spotOrderUpdated'; order: SpotOrderRecord }
  | { type: 'referralCommissions'; rows: CommissionRow[] }
  | { type: 'referralPaid'; at: number; legIds: string[] }
  | { type: 'cycleOrderOpened'; order: CycleOrderRecord }
  | { type: 'cycleSettled'; atCloses: CycleSettledAtClose[] }
  | { type: 'convertOrder'; order: ConvertOrderRecord }
  | FuturesRowsEvent
  | { type: 'ieo'; ops: IeoRowOp[] }
  | { type: 'fiat'; ops: FiatRowOp[] }
  | { type: 'depositCredited'; deposit: { id: string; round: number; at: number } }
  | { type: 'depositReversed'; deposit: { id: string; at: number } }
  | { type: 'withdrawalRequested'; withdrawal: WithdrawalRecord }
  | { type: 'withdrawalMoved'; move: WithdrawalMove }
  | { type: 'adjusted'; adjusted: { requestId: number; transferId: string; at: number } }
  | { type: 'indexPrices'; at: number; prices: [coin: string, price: string][] };

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
