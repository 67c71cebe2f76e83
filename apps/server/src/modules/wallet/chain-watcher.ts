import { Dec } from '@halyard/money';
import { type Address, type Hex, parseAbiItem } from 'viem';
import type { Clock } from '../../clock.ts';
import {
  type DepositCredit,
  depositCreditTransfer,
  depositReversalTransfer,
} from '../../core/state/index.ts';
import {
  type CustodyWallet,
  custodyWallet,
  isLedgerError,
  LEDGER_ERRORS,
  type Ledger,
  systemAccount,
} from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitProjected } from '../../money-core/submit.ts';
import type { Db } from '../../store/database.ts';
import type { ChainReader } from './chains.ts';
import { unitsToDec } from './chains.ts';
import type { CoinChain } from './coins.ts';
import { CHAIN_NAMES, type ChainId } from './config.ts';
import { type DepositRow, walletStore as sql } from './store.ts';

const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** TIGER_STYLE bounds: blocks scanned per poll, deposits examined per poll. */
export const SCAN_BLOCKS_MAX = 500;
export const DEPOSITS_PER_POLL_MAX = 200;
/** A credited deposit is re-checked against reorgs while it is this many blocks deep or less. */
export const REORG_WINDOW_BLOCKS = 64;

/** The custody account of a chain: a deposit moves money from it to the user (it runs negative by nature). */
export function custodyOf(chainId: ChainId) {
  return systemAccount(custodyWallet(CHAIN_NAMES[chainId].toLowerCase()));
}

export interface WatcherOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  reader: ChainReader;
  /** The coins of this chain, read per poll so that an edited coin row takes effect. */
  coins: () => Promise<CoinChain[]>;
  /** Where a fresh cursor starts: 0 for a chain of our own, the head for a public chain. */
  startAtHead: boolean;
  /** Called when a reorg takes back a deposit the user has already spent (the account should be frozen). */
  onUnpaidReversal: (deposit: DepositRow) => Promise<void>;
  /**
   * The sequenced core, when deposits run on it (issue 19's cut-over): a
   * credit and a reversal are its `depositCredited` and `depositReversed`,
   * and the deposit row is marked behind by the projection (modules/wallet/projection.ts).
   */
  core?: MoneyCoreHandle;
}

export interface PollReport {
  head: number;
  scanned: { from: number; to: number } | null;
  /** Transfer logs to deposit addresses read in this pass (the re-read tail included). */
  found: number;
  credited: number;
  rejected: number;
  reversed: number;
}

interface SeenLog {
  depositId: string;
  userId: number;
  coin: CoinChain;
  address: Address;
  amount: string;
  txHash: Hex;
  logIndex: number;
  blockNumber: number;
  blockHash: Hex;
}

/**
 * Credits ERC-20 deposits from the chain, exactly once (AMENDMENTS A1, A4).
 *
 * Each poll: (1) re-checks the block hash of every waiting deposit and of
 * credited ones still within the reorg window — a changed or vanished block
 * rejects a waiting deposit and reverses a credited one through the ledger,
 * and rewinds the cursor so a re-included transfer is found again; (2) reads
 * the Transfer logs of the coins' contracts in the next block range and
 * records those to deposit addresses as waiting; (3) credits waiting deposits
 * with enough confirmations (custody → user's spot). A deposit is keyed by
 * chain + tx hash + log index and its credit's transfer id derives from that
 * key and its credit round, so a replayed range or a retry never pays twice.
 */
export class ChainWatcher {
  private readonly chainId: ChainId;
  private polling: Promise<PollReport> | null = null;
  /** The head read by the last finished poll, and when it finished (the dashboard's height and lag). */
  lastPoll: { head: number; at: number } | null = null;

  constructor(private readonly options: WatcherOptions) {
    this.chainId = options.reader.chainId;
  }

  /** One bounded pass; overlapping calls share it. */
  poll(): Promise<PollReport> {
    if (!this.polling) {
      this.polling = this.pass().finally(() => {
        this.polling = null;
      });
    }
    return this.polling;
  }

  /**
   * Called when a chain's first deposit address is handed out: with no cursor
   * yet, scanning starts after the current head. Nothing before it can be a deposit to an
   * address nobody had seen, and a chain that outlived a wiped database (a
   * demo chain kept in data/chain) cannot pay its old transfers to new users
   * who happen to get the same derived address.
   */
  async startIfUnset(): Promise<void> {
    const { db, reader } = this.options;
    if ((await sql.cursor(db, this.chainId)) !== null) return;
    const head = Number(await reader.client.getBlockNumber());
    await sql.setCursor(db, this.chainId, head + 1);
  }

  /** Moves the scan cursor (tests replay a range; an operator can rescan after an outage). */
  async rewind(toBlock: number): Promise<void> {
    await sql.setCursor(this.options.db, this.chainId, toBlock);
  }

  private async pass(): Promise<PollReport> {
    const { db, reader } = this.options;
    const head = Number(await reader.client.getBlockNumber());
    const coins = await this.options.coins();
    const report: PollReport = { head, scanned: null, found: 0, credited: 0, rejected: 0, reversed: 0 };
    const hashes = new BlockHashes(reader, head);

    const rewindTo = await this.checkReorgs(hashes, report);
    let cursor = (await sql.cursor(db, this.chainId)) ?? (this.options.startAtHead ? head : 0);
    if (rewindTo !== null) cursor = Math.min(cursor, rewindTo);
    // The unconfirmed tail is read again every poll: a reorg may have put a
    // deposit into a block height already read, and it must be seen before
    // it could gather its confirmations. Re-reading a log changes nothing.
    const tail = Math.max(1, ...coins.map((coin) => coin.confirmations));
    const from = Math.max(0, Math.min(cursor, head - tail + 1));
    const to = Math.min(head, from + SCAN_BLOCKS_MAX - 1);
    if (from <= to) {
      report.scanned = { from, to };
      report.found = await this.scan(coins, from, to);
      cursor = Math.max(cursor, to + 1);
    }
    await sql.setCursor(db, this.chainId, cursor);
    await this.confirm(coins, hashes, report);
    report.reversed += await this.retryUnpaidReversals();
    this.lastPoll = { head, at: this.options.clock.now() };
    return report;
  }

  /** Rejects or reverses deposits whose block is no longer on the chain; answers the lowest such block. */
  private async checkReorgs(hashes: BlockHashes, report: PollReport): Promise<number | null> {
    const { db } = this.options;
    const waiting = await sql.depositsInState(db, this.chainId, 'waiting', 0, DEPOSITS_PER_POLL_MAX);
    const recent = await sql.depositsInState(
      db,
      this.chainId,
      'completed',
      Math.max(0, hashes.head - REORG_WINDOW_BLOCKS),
      DEPOSITS_PER_POLL_MAX,
    );
    let lowest: number | null = null;
    for (const deposit of [...waiting, ...recent]) {
      // Known reorged and waiting for the user's funds: retried by retryUnpaidReversals.
      if (deposit.reason === 'reorgUnpaid') continue;
      const live = await hashes.at(Number(deposit.block_number));
      if (live === deposit.block_hash) continue;
      lowest = Math.min(lowest ?? Number.MAX_SAFE_INTEGER, Number(deposit.block_number));
      if (deposit.state === 'waiting') {
        await sql.updateDeposit(db, deposit.id, {
          state: 'rejected',
          reason: 'reorg',
          updated_at: this.now(),
        });
        report.rejected += 1;
      } else if (await this.reverse(deposit)) {
        report.reversed += 1;
      }
    }
    return lowest;
  }

  /**
   * Takes a reorged credit back (user's spot → custody). When the user has
   * already spent it the ledger refuses; the deposit stays credited, marked
   * `reorgUnpaid`, the owner is reported (frozen), and the next polls retry.
   */
  private async reverse(deposit: DepositRow): Promise<boolean> {
    try {
      await this.takeBack(deposit);
      return true;
    } catch (error) {
      if (!isLedgerError(error) || error.key !== LEDGER_ERRORS.insufficientBalance) throw error;
      if (deposit.reason !== 'reorgUnpaid') {
        await sql.updateDeposit(this.options.db, deposit.id, {
          reason: 'reorgUnpaid',
          updated_at: this.now(),
        });
        await this.options.onUnpaidReversal(deposit);
      }
      return false;
    }
  }

  /**
   * The reversal of the deposit's last credit, with its row marked rejected
   * by the reorg. On the core, a reversal the user cannot cover is refused
   * as the SQL ledger refuses it (insufficientBalance: submitProjected), and
   * the reply waits until SQL holds the row, so the next poll reads it.
   */
  private async takeBack(deposit: DepositRow): Promise<void> {
    const { ledger, core } = this.options;
    const credit = depositCreditOf(deposit, deposit.credit_round);
    if (core) {
      await submitProjected(core, { kind: 'depositReversed', ...credit, at: this.now() });
      return;
    }
    await ledger.transaction(async (trx) => {
      await ledger.execute([depositReversalTransfer(credit)], trx);
      await sql.updateDeposit(trx, deposit.id, {
        state: 'rejected',
        reason: 'reorg',
        updated_at: this.now(),
      });
    });
  }

  /** Retries the reversals the user could not yet cover. */
  private async retryUnpaidReversals(): Promise<number> {
    const { db } = this.options;
    const unpaid = await sql.depositsWithReason(db, this.chainId, 'reorgUnpaid', DEPOSITS_PER_POLL_MAX);
    let reversed = 0;
    for (const deposit of unpaid) {
      if (deposit.state === 'completed' && (await this.reverse(deposit))) reversed += 1;
    }
    return reversed;
  }

  private async scan(coins: CoinChain[], from: number, to: number): Promise<number> {
    const { db, reader } = this.options;
    if (coins.length === 0) return 0;
    const byContract = new Map(coins.map((coin) => [coin.contract.toLowerCase(), coin]));
    const logs = await reader.client.getLogs({
      address: coins.map((coin) => coin.contract),
      event: TRANSFER_EVENT,
      fromBlock: BigInt(from),
      toBlock: BigInt(to),
    });
    const recipients = [...new Set(logs.flatMap((log) => (log.args.to ? [log.args.to] : [])))];
    const owners = await sql.depositOwners(db, this.chainId, recipients);
    let found = 0;
    for (const log of logs) {
      const { to: recipient, value } = log.args;
      const coin = byContract.get(log.address.toLowerCase());
      const userId = recipient ? owners.get(recipient) : undefined;
      if (!coin || userId === undefined || value === undefined || !recipient || log.blockHash === null)
        continue;
      if (log.transactionHash === null || log.logIndex === null || log.blockNumber === null) continue;
      await this.record({
        depositId: `${this.chainId}:${log.transactionHash}:${log.logIndex}`,
        userId,
        coin,
        address: recipient,
        amount: unitsToDec(value, coin.decimals).toString(),
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: Number(log.blockNumber),
        blockHash: log.blockHash,
      });
      found += 1;
    }
    return found;
  }

  /**
   * Records a log once. Seen again in the same block: nothing. Seen in another
   * block after a reorg: it waits for its confirmations again (a reversed
   * credit is paid again in a new round; an unpaid reversal is simply undone).
   */
  private async record(log: SeenLog): Promise<void> {
    const { db } = this.options;
    const existing = await sql.deposit(db, log.depositId);
    const now = this.now();
    const block = { block_number: log.blockNumber, block_hash: log.blockHash, updated_at: now };
    if (!existing) {
      await sql.insertDeposit(db, {
        id: log.depositId,
        user_id: log.userId,
        coin: log.coin.coin,
        chain_id: this.chainId,
        address: log.address,
        amount: log.amount,
        tx_hash: log.txHash,
        log_index: log.logIndex,
        state: 'waiting',
        reason: null,
        credit_round: 0,
        created_at: now,
        ...block,
      });
      return;
    }
    if (existing.block_hash === log.blockHash) return;
    if (existing.state === 'completed' && existing.reason === 'reorgUnpaid') {
      await sql.updateDeposit(db, existing.id, { ...block, reason: null });
    } else if (existing.state !== 'completed') {
      await sql.updateDeposit(db, existing.id, { ...block, state: 'waiting', reason: null });
    }
  }

  private async confirm(coins: CoinChain[], hashes: BlockHashes, report: PollReport): Promise<void> {
    const { db } = this.options;
    const byCoin = new Map(coins.map((coin) => [coin.coin, coin]));
    const waiting = await sql.depositsInState(db, this.chainId, 'waiting', 0, DEPOSITS_PER_POLL_MAX);
    for (const deposit of waiting) {
      const coin = byCoin.get(deposit.coin);
      if (!coin) continue;
      const confirmations = hashes.head - Number(deposit.block_number) + 1;
      if (confirmations < coin.confirmations) continue;
      if ((await hashes.at(Number(deposit.block_number))) !== deposit.block_hash) continue;
      if (parseAmount(deposit.amount).lt(coin.depositMin)) {
        await sql.updateDeposit(db, deposit.id, {
          state: 'rejected',
          reason: 'belowMinimum',
          updated_at: this.now(),
        });
        report.rejected += 1;
        continue;
      }
      await this.credit(deposit);
      report.credited += 1;
    }
  }

  private async credit(deposit: DepositRow): Promise<void> {
    const { ledger, core } = this.options;
    const round = deposit.credit_round + 1;
    const credit = depositCreditOf(deposit, round);
    if (core) {
      await submitProjected(core, { kind: 'depositCredited', ...credit, at: this.now() });
      return;
    }
    await ledger.transaction(async (trx) => {
      await ledger.execute([depositCreditTransfer(credit)], trx);
      await sql.updateDeposit(trx, deposit.id, {
        state: 'completed',
        reason: null,
        credit_round: round,
        updated_at: this.now(),
      });
    });
  }

  private now(): number {
    return this.options.clock.now();
  }
}

/**
 * What the credit of a confirmed deposit row in `round` moves (the money
 * state's `depositCredited` carries the same: core/state/wallet-flows.ts).
 */
export function depositCreditOf(deposit: DepositRow, round: number): DepositCredit {
  return {
    depositId: deposit.id,
    round,
    userId: Number(deposit.user_id),
    custody: custodyOf(deposit.chain_id as ChainId).wallet as CustodyWallet,
    coin: deposit.coin,
    amount: deposit.amount,
  };
}

function parseAmount(text: string): Dec {
  return Dec.parse(text);
}

/** Block hashes by number, read at most once per poll; null for a block beyond the head. */
class BlockHashes {
  private readonly known = new Map<number, Hex | null>();

  constructor(
    private readonly reader: ChainReader,
    readonly head: number,
  ) {}

  async at(blockNumber: number): Promise<Hex | null> {
    if (blockNumber > this.head) return null;
    const cached = this.known.get(blockNumber);
    if (cached !== undefined) return cached;
    const block = await this.reader.client.getBlock({ blockNumber: BigInt(blockNumber) });
    const hash = block.hash ?? null;
    this.known.set(blockNumber, hash);
    return hash;
  }
}
