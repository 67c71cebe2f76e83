import { Dec } from '@halyard/money';
import type { BooksCheck, CoinSolvency, CoreStatus, LedgerAuditStatus } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import {
  type AuditReport,
  auditLedger,
  type Ledger,
  SYSTEM_OWNER,
  type WalletTotal,
} from '../../ledger/index.ts';
import type { Executor } from '../../store/database.ts';
import type { HotCoinBalance, WalletOperatorReads } from '../wallet/index.ts';

/**
 * System wallets that hold users' money on their behalf: the margin of open
 * futures positions and the stakes of open cycle contracts. They count as
 * owed to users next to the users' own wallets.
 */
const USER_MONEY_POOLS: ReadonlySet<string> = new Set(['futures_margin', 'cycle_stakes']);

function isOwedToUsers(total: WalletTotal): boolean {
  return total.owner !== SYSTEM_OWNER || USER_MONEY_POOLS.has(total.wallet);
}

function isCustody(total: WalletTotal): boolean {
  return total.owner === SYSTEM_OWNER && total.wallet.startsWith('custody:');
}

function sumOf(totals: readonly WalletTotal[], coin: string, keep: (total: WalletTotal) => boolean): Dec {
  return Dec.sum(totals.filter((total) => total.asset === coin && keep(total)).map((total) => total.total));
}

/**
 * Per coin the wallet lists on a chain: what users are owed, what the ledger
 * records as held in custody on chain, and what the hot wallet holds. Coins
 * that exist only inside the exchange (launched tokens) have no hot wallet to
 * compare with and are left out.
 */
export function solvencyOf(totals: readonly WalletTotal[], hot: readonly HotCoinBalance[]): CoinSolvency[] {
  const coins = [...new Set(hot.map((entry) => entry.coin))];
  return coins.map((coin) => {
    const balances = hot.filter((entry) => entry.coin === coin);
    const hotTotal = Dec.sum(
      balances.flatMap((entry) => (entry.balance === null ? [] : [Dec.parse(entry.balance)])),
    );
    const liabilities = sumOf(totals, coin, isOwedToUsers);
    return {
      coin,
      liabilities: liabilities.toString(),
      // Custody runs negative by what came in (a deposit debits it): shown as what should be on chain.
      custody: sumOf(totals, coin, isCustody).neg().toString(),
      hot: balances.map(({ coin: _coin, ...balance }) => balance),
      hotTotal: hotTotal.toString(),
      hotCoverage: hotTotal.sub(liabilities).toString(),
    };
  });
}

export interface BooksCheckOptions {
  db: Executor;
  ledger: Ledger;
  wallet: WalletOperatorReads;
  clock: Clock;
  /** On the sequenced core: its audit, the ledger audit of SQL and SQL against the state at one sequence. */
  core?: CoreChecks;
}

/** What the back office reads of the sequenced core (MoneyCore). */
export interface CoreChecks {
  status(): CoreStatus;
  audit(): Promise<{ seq: number; report: AuditReport }>;
}

/**
 * The dashboard's expensive figures, run on demand and kept: the ledger audit
 * (every account replayed from its transfers, ledger/audit.ts), the hot
 * wallet against what users are owed (a node call per coin and chain) and the
 * completed withdrawals against the chain (a receipt per transaction): what
 * `npm run audit` checks, and the hot wallet besides. A run
 * asked for while one is going shares it instead of starting a second.
 *
 * On SQLite the audit's snapshot holds the store's one connection for the
 * length of the run, so other requests wait for it: one more reason it runs
 * only when an operator asks.
 */
export class BooksCheckCache {
  private last: BooksCheck | null = null;
  private running: Promise<BooksCheck> | null = null;

  constructor(private readonly options: BooksCheckOptions) {}

  latest(): BooksCheck | null {
    return this.last;
  }

  run(): Promise<BooksCheck> {
    if (!this.running) {
      this.running = this.check().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async check(): Promise<BooksCheck> {
    const { db, ledger, wallet } = this.options;
    const ledgerStatus = await this.auditLedger(db);
    const [totals, hot, withdrawals] = await Promise.all([
      ledger.walletTotals(),
      wallet.hotBalances(),
      wallet.reconcileWithdrawals(),
    ]);
    const check = { ledger: ledgerStatus, solvency: solvencyOf(totals, hot), withdrawals };
    this.last = check;
    return check;
  }

  private async auditLedger(db: Executor): Promise<LedgerAuditStatus> {
    const { clock, core } = this.options;
    const started = clock.now();
    const { report, seq } = core ? await core.audit() : { report: await auditLedger(db), seq: null };
    const checkedAt = clock.now();
    return {
      checkedAt,
      tookMs: checkedAt - started,
      ok: report.breaches.length === 0,
      accounts: report.accounts,
      transfers: report.transfers,
      holds: report.holds,
      breaches: report.breaches,
      projectionSeq: seq,
    };
  }
}
