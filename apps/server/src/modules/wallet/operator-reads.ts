import { Dec } from '@halyard/money';
import type {
  AdminDeposit,
  AdminDepositPage,
  ChainWatcherStatus,
  ChainWithdrawalsCheck,
  DayFlow,
  HotWalletBalance,
} from '@halyard/protocol';
import { type Address, erc20Abi, getAddress, isAddress } from 'viem';
import type { Executor } from '../../store/database.ts';
import { createChainReader, unitsToDec } from './chains.ts';
import type { CoinChain } from './coins.ts';
import { CHAIN_IDS, CHAIN_NAMES, type ChainId } from './config.ts';
import { isReconciled, reconcileWithdrawals } from './reconcile.ts';
import type { WalletService } from './service.ts';
import { type DepositRow, type DepositState, walletStore as sql } from './store.ts';

/** One coin on one chain, as the hot wallet holds it. */
export interface HotCoinBalance extends HotWalletBalance {
  coin: string;
}

function adminDeposit(row: DepositRow): AdminDeposit {
  const chainId = row.chain_id as ChainId;
  return {
    id: row.id,
    userId: Number(row.user_id),
    coin: row.coin,
    chainId,
    chain: CHAIN_NAMES[chainId],
    address: row.address,
    amount: Dec.canonical(row.amount),
    txHash: row.tx_hash,
    blockNumber: Number(row.block_number),
    state: row.state,
    reason: row.reason,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Counts and per-coin sums of amounts, coins in name order. */
export function dayFlow(rows: readonly { coin: string; amount: string }[]): DayFlow {
  const byCoin = new Map<string, { count: number; amount: Dec }>();
  for (const row of rows) {
    const entry = byCoin.get(row.coin) ?? { count: 0, amount: Dec.ZERO };
    entry.count += 1;
    entry.amount = entry.amount.add(Dec.parse(row.amount));
    byCoin.set(row.coin, entry);
  }
  return {
    count: rows.length,
    byCoin: [...byCoin.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([coin, entry]) => ({ coin, count: entry.count, amount: entry.amount.toString() })),
  };
}

/**
 * What the back office reads of the wallet (issue 18): the deposits list, the
 * day's flows, the withdrawals waiting for an operator, the chain watchers'
 * heights, the hot wallet's balances and the withdrawals reconciled with the
 * chain. Reads only; the writes stay in WalletService.
 */
export class WalletOperatorReads {
  constructor(
    private readonly db: Executor,
    private readonly wallet: WalletService,
  ) {}

  async depositsPage(
    filter: { coin: string | null; state: DepositState | null },
    page: number,
    limit: number,
  ): Promise<AdminDepositPage> {
    const { rows, total } = await sql.depositsPage(this.db, filter, (page - 1) * limit, limit);
    return { items: rows.map(adminDeposit), total, page, limit };
  }

  /** Deposits and withdrawals created at or after `since` and not rejected. */
  async flowsSince(since: number): Promise<{ deposits: DayFlow; withdrawals: DayFlow }> {
    const { deposits, withdrawals } = await sql.flowsSince(this.db, since);
    return { deposits: dayFlow(deposits), withdrawals: dayFlow(withdrawals) };
  }

  /** Withdrawals that wait for an operator: above the approval threshold, or flagged by the sender. */
  async awaitingOperator(): Promise<{ review: number; flagged: number }> {
    const [review, flagged] = await Promise.all([
      sql.withdrawalCount(this.db, 'review'),
      sql.withdrawalCount(this.db, 'flagged'),
    ]);
    return { review, flagged };
  }

  /** The users a deposit address was handed to; none when `text` is not an address. */
  async depositAddressUsers(text: string): Promise<number[]> {
    const trimmed = text.trim();
    if (!isAddress(trimmed, { strict: false })) return [];
    return sql.depositAddressUsers(this.db, getAddress(trimmed));
  }

  /** Every supported chain: watched or not, the head at the last poll, the scan cursor and the lag. */
  async watchers(): Promise<ChainWatcherStatus[]> {
    const statuses: ChainWatcherStatus[] = [];
    for (const chainId of CHAIN_IDS) {
      const watcher = this.wallet.watchers.get(chainId);
      const nextBlock = await sql.cursor(this.db, chainId);
      const head = watcher?.lastPoll?.head ?? null;
      statuses.push({
        chainId,
        chain: CHAIN_NAMES[chainId],
        connected: watcher !== undefined,
        head,
        polledAt: watcher?.lastPoll?.at ?? null,
        nextBlock,
        // The cursor is the next block to scan: everything below it has been read.
        lagBlocks: head !== null && nextBlock !== null ? Math.max(0, head - (nextBlock - 1)) : null,
      });
    }
    return statuses;
  }

  /**
   * Every chain's completed withdrawals against the chain (reconcile.ts, as
   * `npm run audit` runs it): a receipt read per transaction, so only on
   * demand. A chain without a node, or whose node does not answer, is
   * reported as such, not as a pass.
   */
  async reconcileWithdrawals(): Promise<ChainWithdrawalsCheck[]> {
    const checks: ChainWithdrawalsCheck[] = [];
    for (const chainId of CHAIN_IDS) {
      const base = { chainId, chain: CHAIN_NAMES[chainId] };
      const rpcUrl = this.wallet.rpcUrl(chainId);
      if (!rpcUrl) {
        checks.push({ ...base, unavailable: 'noNode', coins: [] });
        continue;
      }
      const { client } = createChainReader(chainId, rpcUrl);
      const answers = await client.getChainId().then(
        () => true,
        () => false,
      );
      if (!answers) {
        checks.push({ ...base, unavailable: 'nodeError', coins: [] });
        continue;
      }
      const entries = await reconcileWithdrawals(this.db, chainId, (hash) =>
        client.getTransactionReceipt({ hash }).catch(() => null),
      );
      const coins = entries.map((entry) => ({
        coin: entry.coin,
        withdrawals: entry.withdrawals,
        completed: entry.completed.toString(),
        transactions: entry.transactions,
        onChain: entry.onChain.toString(),
        missing: entry.missing,
        ok: isReconciled(entry),
      }));
      checks.push({ ...base, unavailable: null, coins });
    }
    return checks;
  }

  /** The hot wallet's balance of every coin on every chain it is listed on, read from the chain now. */
  async hotBalances(): Promise<HotCoinBalance[]> {
    const address = this.wallet.hotAddress();
    const coins = await this.wallet.coins();
    return Promise.all(coins.map((coin) => this.hotBalance(coin, address)));
  }

  private async hotBalance(coin: CoinChain, address: Address | null): Promise<HotCoinBalance> {
    const base = { coin: coin.coin, chainId: coin.chainId, chain: CHAIN_NAMES[coin.chainId], address };
    if (!address) return { ...base, balance: null, unavailable: 'noHotWallet' };
    const rpcUrl = this.wallet.rpcUrl(coin.chainId);
    if (!rpcUrl) return { ...base, balance: null, unavailable: 'noNode' };
    try {
      const units = await createChainReader(coin.chainId, rpcUrl).client.readContract({
        address: coin.contract,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      });
      return { ...base, balance: unitsToDec(units, coin.decimals).toString(), unavailable: null };
    } catch {
      // A node that does not answer (or a contract missing on it) is reported, not thrown: the dashboard shows the rest.
      return { ...base, balance: null, unavailable: 'nodeError' };
    }
  }
}
