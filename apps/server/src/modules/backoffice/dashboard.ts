import type { Dashboard, EngineQueues } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { CycleService } from '../cycle/index.ts';
import type { FiatService } from '../fiat/index.ts';
import type { FuturesService } from '../futures/index.ts';
import type { IdentityService } from '../identity/index.ts';
import type { SpotService } from '../spot/index.ts';
import type { WalletOperatorReads } from '../wallet/index.ts';
import type { BooksCheckCache, CoreChecks } from './books.ts';

const DAY_MS = 86_400_000;

export interface DashboardOptions {
  clock: Clock;
  identity: IdentityService;
  wallet: WalletOperatorReads;
  fiat: FiatService;
  spot: SpotService;
  futures: FuturesService;
  cycle: CycleService;
  ledger: Ledger;
  books: BooksCheckCache;
  core?: CoreChecks;
}

/**
 * The dashboard's figures (issue 18), each read from the module that owns it
 * when asked: nothing is counted twice or kept, except the books check
 * (BooksCheckCache), which is run on demand and shown with its time.
 */
export class DashboardService {
  constructor(private readonly options: DashboardOptions) {}

  async dashboard(): Promise<Dashboard> {
    const { clock, identity, wallet, fiat, books } = this.options;
    const at = clock.now();
    // "Today" is the UTC day, as the withdrawal limits count it.
    const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
    const [users, flows, withdrawals, openAppeals, kycQueue, chains] = await Promise.all([
      identity.userCounts(dayStart),
      wallet.flowsSince(dayStart),
      wallet.awaitingOperator(),
      fiat.openAppealCount(),
      identity.kycQueueLength(),
      wallet.watchers(),
    ]);
    return {
      at,
      dayStart,
      users: { total: users.total, newToday: users.since },
      depositsToday: flows.deposits,
      withdrawalsToday: flows.withdrawals,
      withdrawals,
      openAppeals,
      kycQueue,
      // The first look runs the check; later ones show the last run until an operator asks again.
      books: books.latest() ?? (await books.run()),
      chains,
      engines: this.engines(),
    };
  }

  private engines(): EngineQueues {
    const { spot, futures, cycle, ledger } = this.options;
    return {
      spot: spot.workload(),
      futures: futures.workload(),
      cycle: cycle.workload(),
      ledger: { queued: ledger.queued() },
      core: this.options.core?.status() ?? null,
    };
  }
}
