import type { ClusterStatus } from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { type Clock, systemClock } from './clock.ts';
import type { ClusterNotices } from './cluster/notices.ts';
import type { Config } from './config.ts';
import { registerAdminApp } from './http/admin-app.ts';
import { databaseReachable, type ReadinessCheck, registerHealth } from './http/health.ts';
import { IdempotencyStore, registerIdempotency } from './http/idempotency.ts';
import { createHttpServer } from './http/server.ts';
import { registerWebApp } from './http/web-app.ts';
import { createLedger, type Ledger } from './ledger/index.ts';
import { createMarketModule, type MarketModule } from './market/index.ts';
import {
  type ApprovalsModule,
  createApprovalsModule,
  withdrawalFourEyes,
} from './modules/approvals/index.ts';
import type { CoreChecks } from './modules/backoffice/books.ts';
import { type BackofficeModule, createBackofficeModule } from './modules/backoffice/index.ts';
import { type ContentModule, createContentModule, seedContentDemo } from './modules/content/index.ts';
import { type ConvertModule, createConvertModule } from './modules/convert/index.ts';
import { type CycleModule, createCycleModule } from './modules/cycle/index.ts';
import { createFaucetModule, type FaucetModule } from './modules/faucet/index.ts';
import { createFiatModule, type FiatModule } from './modules/fiat/index.ts';
import { createFuturesModule, type FuturesModule, fundingIntervalFrom } from './modules/futures/index.ts';
import { createIdentityModule, type IdentityModule, type Messengers } from './modules/identity/index.ts';
import { createIeoModule, type IeoModule } from './modules/ieo/index.ts';
import { createMarketsModule } from './modules/markets/index.ts';
import { createOperatorsModule, type OperatorsModule } from './modules/operators/index.ts';
import { createReferralModule, type ReferralModule, seedReferralDemo } from './modules/referral/index.ts';
import { ReferralOnCore } from './modules/referral/on-core.ts';
import { createSpotModule, type SpotModule } from './modules/spot/index.ts';
import { createSupportModule, type SupportModule } from './modules/support/index.ts';
import { createWalletModule, type WalletModule } from './modules/wallet/index.ts';
import type { MoneyCoreHandle } from './money-core/handle.ts';
import { ledgerOnCore } from './money-core/ledger-on-core.ts';
import { MoneyCore } from './money-core/start.ts';
import type { WorkerStore } from './projection/worker-transport.ts';
import { RealtimeGateway } from './realtime/gateway.ts';
import type { Store } from './store/connect.ts';

export interface AppOptions {
  config: Config;
  store: Store;
  clock?: Clock;
  /** Tests turn rate limits off except where a test is about them. */
  rateLimits?: boolean;
  /** The channels codes are sent through, instead of those config names (tests keep what is mailed). */
  messengers?: Messengers;
  /**
   * Runs the money on the sequenced core (issue 19): every money module
   * submits its commands to the core (docs/core.md, "The cut-over, module by
   * module"). main.ts passes it unless HALYARD_MONEY_CORE=false (start.ts,
   * moneyCoreOf); without it the modules' SQL paths run the money.
   */
  moneyCore?: { dataDir: string; workerStore: WorkerStore | null };
  /** A gateway of a cluster: the console's cluster panel (cluster/overview.ts, `clusterOverview`). */
  clusterOverview?: () => Promise<ClusterStatus>;
  /**
   * A gateway of a cluster: its notices to the other gateways
   * (cluster/notices.ts), so what one changes in memory the others forget
   * or read again (identity checks, market listings). With it the rate
   * limits are counted in SQL, for every gateway together, and the index
   * follows the core's prices until this gateway runs the jobs
   * (`market.leadIndex()`; docs/cluster.md, "What the gateways share").
   */
  gatewayNotices?: ClusterNotices;
  /**
   * A core started elsewhere, instead of `moneyCore`: a cluster gateway's
   * ClusterCore (cluster/gateway-role.ts). The modules run on it as on their
   * own; the app does not close it.
   */
  core?: RunningCore;
  /** Answers GET /readyz (http/health.ts); by default: the database answers (the core started with the app). */
  readiness?: ReadinessCheck;
  /** A cluster gateway runs the demo seeds only while it holds the jobs lease (`App.seedDemo`); by default createApp runs them. */
  deferDemoSeeds?: boolean;
}

/** The core the modules run on, and what the back office reads of it: MoneyCore, or a gateway's ClusterCore. */
export type RunningCore = MoneyCoreHandle & CoreChecks;

export interface App {
  http: FastifyInstance;
  /** The only writer of balances: every module moves money through it. */
  ledger: Ledger;
  /** The sequenced core this app started (AppOptions.moneyCore): null on SQL, and on a gateway (AppOptions.core). */
  moneyCore: MoneyCore | null;
  content: ContentModule;
  /** Sessions, users, locks, freezes, KYC: `identity.requireUser` guards login routes. */
  identity: IdentityModule;
  support: SupportModule;
  /** Index prices, K-lines, tickers: spot and futures feed it their committed trades. */
  market: MarketModule;
  /** The WebSocket gateway; `realtime.publish` pushes committed effects to clients. */
  realtime: RealtimeGateway;
  /** Spot pairs, order books, /trad/* and the market maker. */
  spot: SpotModule;
  /** Demo play money through the ledger (POST /account/demoFaucet in demo mode). */
  faucet: FaucetModule;
  /** Coins, deposits from the chain, withdrawals, transfers, balances and totals (/account/*). */
  wallet: WalletModule;
  /** Flash exchange at the index price less a spread (/flash/*). */
  convert: ConvertModule;
  /** Up/down contracts settled from the index history alone (/cycle/*, AMENDMENTS A3). */
  cycle: CycleModule;
  /** Perpetual futures: contracts, positions, liquidation, funding, TP/SL (/contract/*). */
  futures: FuturesModule;
  /** Token launches: FCFS and commit-mode sales, vesting released on the clock (/ieo/*). */
  ieo: IeoModule;
  /** Fiat buy and sell through merchants with escrow, expiry and bans (/fiat/*, issue 16). */
  fiat: FiatModule;
  /** Invites, team, HAL fee deduction and commissions (/user/getMyTeam, /referral/*, issue 17). */
  referral: ReferralModule;
  /** Four-eyes requests (adjustments, large withdrawals, listings, role changes): a second operator approves. */
  approvals: ApprovalsModule;
  /** Operator accounts, roles, TOTP sign-in and the audit trail: `operators.guard` guards every /admin route (issue 18). */
  operators: OperatorsModule;
  /** The back office's reads: dashboard, users, deposits (/admin/dashboard, /admin/users, /admin/deposits). */
  backoffice: BackofficeModule;
  /** The demo data (AMENDMENTS A5), idempotent: createApp runs it in demo mode unless told to defer it. */
  seedDemo(): Promise<void>;
  /** Starts the timers (index ticks, idle sweep): main.ts calls it; tests step by hand. */
  start(): void;
  /**
   * Only what serves this process's own clients: the WebSocket's idle sweep
   * and the periodic pushes (pair lists, contract symbols, cycle info). A
   * cluster gateway that does not hold the jobs lease runs these; `start()`
   * includes them.
   */
  startPushes(): void;
  close(): Promise<void>;
}

/**
 * Composition root shared by `main.ts` and the tests: store → ledger →
 * module services → HTTP routes. Nothing here listens on a port.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, store } = options;
  const clock = options.clock ?? systemClock;
  const http = await createHttpServer({
    logLevel: config.logLevel,
    rateLimits: options.rateLimits ?? true,
    trustedProxies: config.trustedProxies,
    ...(options.gatewayNotices ? { sharedRateLimits: store.db } : {}),
  });
  if (options.core && options.moneyCore) throw new Error('createApp: give it moneyCore or core, not both');
  const ownCore = options.moneyCore
    ? await MoneyCore.start({
        ...options.moneyCore,
        db: store.db,
        dialect: store.dialect,
        now: () => clock.now(),
        onError: (error) => http.log.error({ err: error }, 'money core'),
      })
    : null;
  const core: RunningCore | null = options.core ?? ownCore;
  // A core that stopped for good takes every money command down with it: the process is not ready, and
  // main.ts exits for its supervisor to restart it (start.ts, exitWhenCoreStops).
  let coreStopped = false;
  ownCore?.onStopped((error) => {
    coreStopped = true;
    http.log.fatal({ err: error }, 'the money core stopped: a restart recovers it from the journal');
  });
  registerHealth(
    http,
    options.readiness ??
      (async () => {
        const database = await databaseReachable(store.db);
        const checks = { database, core: core !== null, coreStopped };
        return { ready: database && !coreStopped, role: config.role, checks };
      }),
  );
  const ledger = core
    ? ledgerOnCore(createLedger(store, clock), core, () => clock.now())
    : createLedger(store, clock);
  // Before any route is added: it wraps the money routes that declare a clientOid.
  registerIdempotency(http, new IdempotencyStore(store.db, clock));
  const realtime = new RealtimeGateway({
    clock,
    onError: (error) => http.log.error({ err: error }, 'realtime socket'),
  });
  await realtime.register(http);
  const market = await createMarketModule({
    config,
    store,
    clock,
    publisher: realtime,
    ...(core ? { core } : {}),
    onError: (error) => http.log.error({ err: error }, 'market data'),
  });
  market.registerRoutes(http);
  // A gateway that does not run the jobs has no price source of its own: it takes the core's (indexPrices).
  if (options.gatewayNotices) market.followIndex();
  // Before every module with /admin routes: they take its guard, and its audit hook records their writes.
  const operators = createOperatorsModule({
    db: store.db,
    clock,
    passwordHashCost: config.passwordHashCost,
    adminToken: config.adminToken,
    onError: (error) => http.log.error({ err: error }, 'operator audit'),
  });
  operators.registerRoutes(http);
  const identity = createIdentityModule({
    config,
    store,
    clock,
    operatorGuard: operators.guard,
    ...(options.messengers ? { messengers: options.messengers } : {}),
    ...(core ? { core } : {}),
    ...(options.gatewayNotices ? { forgetNotices: options.gatewayNotices.channel('identity') } : {}),
    onError: (error) => http.log.error({ err: error }, 'demo reviewer'),
  });
  await identity.checkUploads();
  identity.registerRoutes(http);
  const content = createContentModule({
    store,
    clock,
    operatorGuard: operators.guard,
    requireUser: identity.requireUser,
    demo: config.demo,
    deployment: { release: config.release, nativeApps: config.nativeApps, contact: config.contact },
  });
  await content.registerRoutes(http);
  const support = createSupportModule({
    store,
    clock,
    operatorGuard: operators.guard,
    requireUser: identity.requireUser,
  });
  support.registerRoutes(http);
  // On the core: what the money state reads for fees in HAL and commissions (profiles, settings, index prices).
  const referralOnCore = core
    ? new ReferralOnCore({
        db: store.db,
        core,
        // The source's own ticks: on a gateway, market.index follows the core's prices, which must not go back to it.
        index: market.simulator,
        now: () => clock.now(),
        onError: (error) => http.log.error({ err: error }, 'referral on the core'),
      })
    : null;
  const stopIndexPrices = await referralOnCore?.start();
  const beforeFee = (userId: number) => referralOnCore?.beforeFee(userId) ?? Promise.resolve();
  // Before spot and futures: their fees pay commissions in the same transaction.
  const referral = await createReferralModule({
    db: store.db,
    ledger,
    clock,
    index: market.index,
    requireUser: identity.requireUser,
    operatorGuard: operators.guard,
    demo: config.demo,
    // Run after start, when the spot module below exists: the demo team trades through it.
    seedDemo: () =>
      seedReferralDemo({ db: store.db, ledger, identity: identity.service, spot: spot.service }),
    ...(referralOnCore ? { onCore: referralOnCore } : {}),
    onError: (error) => http.log.error({ err: error }, 'referral'),
  });
  referral.registerRoutes(http);
  const spot = await createSpotModule({
    store,
    ledger,
    clock,
    identity: identity.service,
    referral: referral.service.fees,
    market,
    publisher: realtime,
    requireUser: identity.requireUser,
    ...(core ? { core, beforeFee } : {}),
    onError: (error) => http.log.error({ err: error }, 'spot'),
  });
  spot.registerRoutes(http);
  const faucet = createFaucetModule({
    ledger,
    clock,
    identity: identity.service,
    requireUser: identity.requireUser,
    ...(core ? { core } : {}),
  });
  if (config.demo) faucet.registerRoutes(http);
  const wallet = createWalletModule({
    store,
    ledger,
    clock,
    identity: identity.service,
    index: market.index,
    // Read at request time, after the futures module below exists: futures never depends on the wallet.
    futuresExposure: async (userId) => futures.service.exposure(userId),
    // Launched tokens live only in the ledger; read at request time, as above (the IEO module comes later).
    listedCoins: async () => ieo.service.launchedCoins(),
    requireUser: identity.requireUser,
    config: config.wallet,
    // Read at request time, after the approvals module below exists: it needs the wallet to release.
    fourEyes: withdrawalFourEyes(() => approvals.service),
    operatorGuard: operators.guard,
    demo: config.demo,
    ...(core ? { core } : {}),
    onError: (error, context) => http.log.error({ err: error }, context),
    onInfo: (message) => http.log.info(message),
  });
  wallet.registerRoutes(http);
  const approvals = createApprovalsModule({
    db: store.db,
    ledger,
    clock,
    operatorGuard: operators.guard,
    requireUser: async (userId) => void (await identity.service.getUser(userId)),
    knownCoins: () => wallet.assets.knownCoins(),
    wallet: wallet.service,
    ...(core ? { core } : {}),
    onError: (error) => http.log.error({ err: error }, 'approvals'),
  });
  approvals.registerRoutes(http);
  operators.registerRoleChanges(http, approvals.service);
  const convert = createConvertModule({
    db: store.db,
    ledger,
    clock,
    index: market.index,
    identity: identity.service,
    spread: config.wallet.convertSpread,
    quoteTtlMs: config.wallet.quoteTtlMs,
    requireUser: identity.requireUser,
    ...(core ? { core } : {}),
  });
  convert.registerRoutes(http);
  const cycle = await createCycleModule({
    store,
    ledger,
    clock,
    identity: identity.service,
    market,
    publisher: realtime,
    requireUser: identity.requireUser,
    refusedAreaCodes: config.cycleRefusedAreaCodes,
    referral: referral.service.fees,
    ...(core ? { core, beforeFee } : {}),
    onError: (error) => http.log.error({ err: error }, 'cycle'),
  });
  cycle.registerRoutes(http);
  const futures = await createFuturesModule({
    store,
    ledger,
    clock,
    identity: identity.service,
    market,
    publisher: realtime,
    requireUser: identity.requireUser,
    fundingIntervalMs: fundingIntervalFrom(process.env),
    referral: referral.service.fees,
    ...(core ? { core, beforeFee } : {}),
    onError: (error) => http.log.error({ err: error }, 'futures'),
  });
  futures.registerRoutes(http);
  const ieo = await createIeoModule({
    db: store.db,
    ledger,
    clock,
    identity: identity.service,
    requireUser: identity.requireUser,
    operatorGuard: operators.guard,
    demo: config.demo,
    ...(core ? { core, beforeFee } : {}),
    onError: (error) => http.log.error({ err: error }, 'ieo'),
  });
  ieo.registerRoutes(http);
  const fiat = await createFiatModule({
    db: store.db,
    ledger,
    clock,
    identity: identity.service,
    demo: config.demo,
    // Floating ads follow the market's index in local currency (the wallet's rates): one source for both.
    indexPrice: (coin, fiat) => wallet.assets.fiatPriceOf(coin, fiat),
    requireUser: identity.requireUser,
    operatorGuard: operators.guard,
    ...(core ? { core } : {}),
    onError: (error) => http.log.error({ err: error }, 'fiat'),
  });
  fiat.registerRoutes(http);
  const markets = createMarketsModule({
    spot: spot.service,
    futures: futures.service,
    cycle: cycle.service,
    approvals: approvals.service,
    operatorGuard: operators.guard,
    ...(options.gatewayNotices ? { notices: options.gatewayNotices.channel('markets') } : {}),
    onError: (error) => http.log.error({ err: error }, 'market listings'),
  });
  markets.registerRoutes(http);
  // Every kind is registered: on the core, an approval whose command never became durable is submitted again.
  await approvals.service.resumeApproved();
  const backoffice = createBackofficeModule({
    db: store.db,
    clock,
    ledger,
    guard: operators.guard,
    identity: identity.service,
    wallet: wallet.reads,
    fiat: fiat.service,
    spot: spot.service,
    futures: futures.service,
    cycle: cycle.service,
    ...(core ? { core } : {}),
    ...(options.clusterOverview ? { clusterOverview: options.clusterOverview } : {}),
  });
  backoffice.registerRoutes(http);

  // Demo data (AMENDMENTS A5): each module's seed is idempotent and runs on
  // every start while demo mode is on. Add your module's seed to this list.
  // On the core, only the seeds of the modules cut over so far.
  const demoSeeds: Array<() => Promise<void>> = [
    () => seedContentDemo(store.db, clock),
    () => spot.seedDemo(),
    () => cycle.seedDemo(),
    // The coin rows of the play tokens: no money moves.
    () => wallet.seedDemo(),
    () => futures.seedDemo(),
    // The IEO demo sales: project rows, their funding and the clock's advance, all commands on the core.
    () => ieo.seedDemo(),
    // The house merchant's funding and its ads' amounts (fiatAd) on the core.
    () => fiat.seedDemo(),
  ];
  const seedDemo = async () => {
    for (const seed of demoSeeds) await seed();
  };
  if (config.demo && !options.deferDemoSeeds) await seedDemo();
  await wallet.loadCoinsFile();

  // Last: the built operator console (/admin/) and web app with its single-page fallback, when built.
  await registerAdminApp(http);
  await registerWebApp(http);
  const startPushes = () => {
    realtime.start();
    spot.startPushes();
    futures.startPushes({ demo: config.demo });
    cycle.startPushes();
  };
  await http.ready();
  return {
    http,
    ledger,
    moneyCore: ownCore,
    identity,
    content,
    support,
    market,
    realtime,
    spot,
    faucet,
    wallet,
    convert,
    cycle,
    futures,
    ieo,
    fiat,
    referral,
    operators,
    approvals,
    backoffice,
    seedDemo,
    startPushes,
    start() {
      market.start();
      identity.start();
      cycle.start();
      futures.start({ demo: config.demo });
      // The market maker is demo play; the pair lists are pushed in every mode.
      if (config.demo) spot.start();
      startPushes();
      wallet.start();
      ieo.start();
      referral.start();
      fiat.start();
    },
    async close() {
      await fiat.close();
      await ieo.close();
      await referral.close();
      await futures.close();
      await cycle.close();
      await wallet.close();
      await spot.close();
      markets.close();
      await market.close();
      await identity.close();
      realtime.close();
      await http.close();
      stopIndexPrices?.();
      await ownCore?.close();
    },
  };
}
