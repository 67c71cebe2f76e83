import { Dec } from '@halyard/money';
import { type Address, erc20Abi, type Hex, parseEventLogs, type TransactionReceipt } from 'viem';
import type { Executor } from '../../store/database.ts';
import { createChainReader, unitsToDec } from './chains.ts';
import type { ChainId, WalletConfig } from './config.ts';
import { walletStore as sql } from './store.ts';

export interface TokenTransferLog {
  to: Address;
  value: bigint;
}

/** The ERC-20 Transfer logs of `token` from `from` in a receipt. */
export function transferLogsOf(
  receipt: TransactionReceipt,
  token: Address,
  from: Address,
): TokenTransferLog[] {
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    .filter(
      (log) =>
        log.address.toLowerCase() === token.toLowerCase() &&
        log.args.from.toLowerCase() === from.toLowerCase(),
    )
    .map((log) => ({ to: log.args.to, value: log.args.value }));
}

/** Reads receipts of one chain (the signer's, or a CLI's own client). */
export type ReceiptReader = (hash: Hex) => Promise<TransactionReceipt | null>;

export interface WithdrawalReconciliation {
  chainId: ChainId;
  coin: string;
  /** Completed withdrawals, and what they add up to. */
  withdrawals: number;
  completed: Dec;
  /** The distinct transactions they name, and what those moved out of the hot wallet on chain. */
  transactions: number;
  onChain: Dec;
  /** Named transactions the chain does not have (mined away by a reorg, or a chain reset). */
  missing: number;
}

/**
 * The wallet's half of the books: per chain and coin, the completed
 * withdrawals must add up to what left the hot wallet on chain — the Transfer
 * logs of that token from the sending hot address in the mined transactions
 * they recorded, each transaction counted once. Two withdrawals completed on
 * one transaction (the old nonce defect) show as `completed` above `onChain`.
 */
export async function reconcileWithdrawals(
  db: Executor,
  chainId: ChainId,
  receiptOf: ReceiptReader,
): Promise<WithdrawalReconciliation[]> {
  const contracts = new Map(
    (await sql.coins(db)).filter((coin) => coin.chainId === chainId).map((coin) => [coin.coin, coin]),
  );
  const rows = await db
    .selectFrom('wallet_withdrawals')
    .select(['coin', 'amount', 'tx_hash'])
    .where('chain_id', '=', chainId)
    .where('state', '=', 'completed')
    .orderBy('id')
    .execute();
  const byCoin = new Map<string, { amounts: Dec[]; hashes: Set<string> }>();
  for (const row of rows) {
    const entry = byCoin.get(row.coin) ?? { amounts: [], hashes: new Set<string>() };
    entry.amounts.push(Dec.parse(row.amount));
    if (row.tx_hash) entry.hashes.add(row.tx_hash);
    byCoin.set(row.coin, entry);
  }
  const results: WithdrawalReconciliation[] = [];
  for (const [coinName, { amounts, hashes }] of byCoin) {
    const coin = contracts.get(coinName);
    let onChain = Dec.ZERO;
    let missing = 0;
    for (const hash of hashes) {
      const receipt = await receiptOf(hash as Hex);
      if (!receipt || !coin) {
        missing += 1;
        continue;
      }
      for (const log of transferLogsOf(receipt, coin.contract, receipt.from))
        onChain = onChain.add(unitsToDec(log.value, coin.decimals));
    }
    results.push({
      chainId,
      coin: coinName,
      withdrawals: amounts.length,
      completed: Dec.sum(amounts),
      transactions: hashes.size,
      onChain,
      missing,
    });
  }
  return results;
}

export function isReconciled(entry: WithdrawalReconciliation): boolean {
  return entry.missing === 0 && entry.completed.eq(entry.onChain);
}

export interface ChainsReconciliation {
  /** One line per chain and coin (or per chain skipped), for an operator. */
  lines: string[];
  breaches: string[];
}

/**
 * Reconciles every chain the wallet config names an RPC URL for (a demo's
 * local chain at its configured port, while the server runs); a chain without
 * one, or whose node does not answer, is reported as skipped, not as a pass.
 */
export async function reconcileConfiguredChains(
  db: Executor,
  config: Pick<WalletConfig, 'chains' | 'localChain'>,
): Promise<ChainsReconciliation> {
  const result: ChainsReconciliation = { lines: [], breaches: [] };
  for (const [offset, chain] of config.chains.entries()) {
    const rpcUrl =
      chain.rpcUrl ?? (config.localChain ? `http://127.0.0.1:${config.localChain.port + offset}` : null);
    if (!rpcUrl) {
      result.lines.push(`wallet reconciliation, chain ${chain.id}: skipped (no RPC URL)`);
      continue;
    }
    const { client } = createChainReader(chain.id, rpcUrl);
    try {
      await client.getChainId();
    } catch {
      result.lines.push(`wallet reconciliation, chain ${chain.id}: skipped (no node answers at ${rpcUrl})`);
      continue;
    }
    const entries = await reconcileWithdrawals(db, chain.id, (hash) =>
      client.getTransactionReceipt({ hash }).catch(() => null),
    );
    if (entries.length === 0)
      result.lines.push(`wallet reconciliation, chain ${chain.id}: no completed withdrawals`);
    for (const entry of entries) {
      const line =
        `chain ${entry.chainId} ${entry.coin}: ${entry.withdrawals} completed withdrawals = ${entry.completed}, ` +
        `their ${entry.transactions} transactions moved ${entry.onChain} out of the hot wallet` +
        (entry.missing ? `, ${entry.missing} not found on chain` : '');
      result.lines.push(`wallet reconciliation, ${line}: ${isReconciled(entry) ? 'OK' : 'MISMATCH'}`);
      if (!isReconciled(entry)) result.breaches.push(line);
    }
  }
  return result;
}
