import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Store } from '../../store/connect.ts';
import type { IdentityService } from '../identity/index.ts';
import { AssetsService, type FuturesExposureSource } from './assets.ts';
import { demoCoinChains, parseCoinFile } from './coins.ts';
import { CHAIN_IDS, type ChainId, type LocalChainSettings, type WalletConfig } from './config.ts';
import { deployDemoTokens, type LocalChain, startLocalChain } from './local-chain.ts';
import { WalletOperatorReads } from './operator-reads.ts';
import { registerWalletRoutes } from './routes.ts';
import { WalletService, type WithdrawalFourEyes } from './service.ts';
import { walletStore } from './store.ts';

export { AssetsService, type FuturesExposure, type FuturesExposureSource } from './assets.ts';
export type { ChainWatcher, PollReport } from './chain-watcher.ts';
export type { CoinChain } from './coins.ts';
export { type ChainId, loadWalletConfig, type WalletConfig } from './config.ts';
export { type HotCoinBalance, WalletOperatorReads } from './operator-reads.ts';
export { WalletService, type WithdrawalFourEyes } from './service.ts';
export type { DepositState } from './store.ts';

/** What createApp exposes as `app.wallet`. */
export interface WalletModule {
  service: WalletService;
  assets: AssetsService;
  /** What the back office reads: deposits, the day's flows, watchers, hot balances (issue 18). */
  reads: WalletOperatorReads;
  registerRoutes(http: FastifyInstance): void;
  /** Demo: the coin rows of the play tokens (their addresses are known before the chain runs). */
  seedDemo(): Promise<void>;
  /** The coins of WALLET_COINS_FILE, when configured (createApp calls it at every start). */
  loadCoinsFile(): Promise<void>;
  /** Starts the local chains (demo), then polls the watchers and the withdrawal sender on a timer. */
  start(): void;
  close(): Promise<void>;
}

export interface WalletModuleOptions {
  store: Store;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  index: IndexPriceSource;
  /** The futures module's margin, unrealised PnL and entrust holds of a user (for the futures asset and the totals). */
  futuresExposure: FuturesExposureSource;
  /** Coins that exist only inside the exchange (launched tokens): known to balances and transfers, not to chains. */
  listedCoins: () => Promise<string[]>;
  requireUser: preHandlerAsyncHookHandler;
  config: WalletConfig;
  /** Releases withdrawals above the four-eyes threshold (modules/approvals; app.ts wires it). */
  fourEyes: WithdrawalFourEyes;
  /** Guards the /admin routes: the signed-in operator's role must allow the route's permission. */
  operatorGuard: OperatorGuard;
  demo: boolean;
  onError: (error: unknown, context: string) => void;
  onInfo: (message: string) => void;
  /**
   * The sequenced core, when the wallet runs on it (issue 19's cut-over):
   * the moves between a user's wallets, the deposits' credits and reversals,
   * and a withdrawal's request, reviews and the sender's reports go to it.
   */
  core?: MoneyCoreHandle;
}

export function createWalletModule(options: WalletModuleOptions): WalletModule {
  const { store, config, demo } = options;
  const service = new WalletService({ ...options, db: store.db });
  const assets = new AssetsService({
    ledger: options.ledger,
    clock: options.clock,
    index: options.index,
    identity: options.identity,
    wallet: service,
    futuresExposure: options.futuresExposure,
    listedCoins: options.listedCoins,
    ...(options.core ? { core: options.core } : {}),
  });
  const locals: LocalChain[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  async function startLocalChains(settings: LocalChainSettings): Promise<void> {
    for (const [offset, chainId] of CHAIN_IDS.entries()) {
      const local = await startOnFreePort(settings, chainId, offset);
      if (closed) {
        await local.close();
        return;
      }
      locals.push(local);
      await deployDemoTokens(local.rpcUrl, chainId, demoCoinChains(chainId));
      service.connectChain(chainId, local.rpcUrl, { startAtHead: false });
      options.onInfo(`demo chain ${chainId} on ${local.rpcUrl}`);
    }
  }

  function startPolling(): void {
    if (closed || timer) return;
    timer = setInterval(() => void service.pollAll(), config.pollMs);
    timer.unref();
  }

  return {
    service,
    assets,
    reads: new WalletOperatorReads(store.db, service),
    registerRoutes: (http) =>
      registerWalletRoutes(http, {
        wallet: service,
        assets,
        requireUser: options.requireUser,
        operatorGuard: options.operatorGuard,
        demo,
      }),
    async seedDemo() {
      await walletStore.upsertCoins(
        store.db,
        CHAIN_IDS.flatMap((chainId) => demoCoinChains(chainId)),
      );
    },
    async loadCoinsFile() {
      if (!config.coinsFile) return;
      await walletStore.upsertCoins(store.db, parseCoinFile(await fs.readFile(config.coinsFile, 'utf8')));
    },
    start() {
      if (!config.localChain) {
        startPolling();
        return;
      }
      startLocalChains(config.localChain).then(startPolling, (error: unknown) =>
        options.onError(error, 'demo chain: deposits and withdrawals stay unavailable'),
      );
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      for (const local of locals.splice(0)) await local.close();
    },
  };
}

/** The configured port (8545 for BNB chain, the next for Ethereum), or any free port when it is taken. */
async function startOnFreePort(
  settings: LocalChainSettings,
  chainId: ChainId,
  offset: number,
): Promise<LocalChain> {
  const base = {
    chainId,
    dbPath: path.join(settings.dataDir, String(chainId)),
    blockTimeSeconds: settings.blockTimeSeconds,
  };
  try {
    return await startLocalChain({ ...base, port: settings.port + offset });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startLocalChain({ ...base, port: 0 });
  }
}
