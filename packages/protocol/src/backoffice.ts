/**
 * The back office's read side on the wire (issue 18): the dashboard, the user
 * search and a user's page, the deposits list. Shared by the server's /admin
 * routes (modules/backoffice) and the console (apps/admin). Money travels as
 * decimal strings, times as epoch milliseconds, block heights as numbers.
 *
 * Contact fields (email, phone) are masked unless the operator holds
 * `pii.read`; every answer that shows them unmasked, or shows identity
 * verification fields, is written to the audit log.
 */

/** A count and its per-coin sums: the deposits or withdrawals created in one UTC day and not rejected. */
export interface DayFlow {
  count: number;
  byCoin: { coin: string; count: number; amount: string }[];
}

/** The ledger audit's last run (ledger/audit.ts), kept until the next run. */
export interface LedgerAuditStatus {
  checkedAt: number;
  /** How long the run took, in ms. */
  tookMs: number;
  ok: boolean;
  accounts: number;
  transfers: number;
  holds: number;
  /** Each broken invariant, in words (empty when ok). */
  breaches: { rule: string; detail: string }[];
  /**
   * On the sequenced core: the sequence at which SQL was also compared with
   * the state in memory (a difference is a `projection` breach); null on SQL.
   */
  projectionSeq: number | null;
}

/**
 * One chain's hot-wallet balance of a coin. `balance` is null when it could
 * not be read, and `unavailable` says why: no hot-wallet key configured, no
 * node for the chain, or the node did not answer.
 */
export interface HotWalletBalance {
  chainId: number;
  chain: string;
  address: string | null;
  balance: string | null;
  unavailable: 'noHotWallet' | 'noNode' | 'nodeError' | null;
}

/**
 * Per coin: what the exchange owes its users (every user wallet, plus the
 * futures margin pool and the open cycle stakes, which are users' money held
 * by the exchange), what the ledger says it holds on chain (custody), and
 * what the hot wallet holds on each chain the coin lives on.
 */
export interface CoinSolvency {
  coin: string;
  liabilities: string;
  /** The custody accounts' balance turned positive: deposits in less withdrawals out, per the ledger. */
  custody: string;
  hot: HotWalletBalance[];
  /** The sum of the hot balances that could be read. */
  hotTotal: string;
  /** hotTotal − liabilities: negative when the hot wallet alone does not cover what users hold. */
  hotCoverage: string;
}

/**
 * The wallet's half of the books (as `npm run audit` checks it): per coin, the
 * completed withdrawals of a chain against what their transactions moved out
 * of the hot wallet on chain, each transaction counted once.
 */
export interface WithdrawalReconciliation {
  coin: string;
  withdrawals: number;
  completed: string;
  transactions: number;
  onChain: string;
  /** Recorded transactions the chain does not have (a reorg, or a reset chain). */
  missing: number;
  ok: boolean;
}

/** One chain's withdrawal reconciliation; `unavailable` says why a chain could not be checked. */
export interface ChainWithdrawalsCheck {
  chainId: number;
  chain: string;
  unavailable: 'noNode' | 'nodeError' | null;
  coins: WithdrawalReconciliation[];
}

/** The checks the dashboard runs on demand (POST /admin/dashboard/audit) and keeps. */
export interface BooksCheck {
  ledger: LedgerAuditStatus;
  solvency: CoinSolvency[];
  withdrawals: ChainWithdrawalsCheck[];
}

/** One chain the wallet watches for deposits. */
export interface ChainWatcherStatus {
  chainId: number;
  chain: string;
  /** False when no node is configured (or the demo chain has not started): nothing is watched. */
  connected: boolean;
  /** The chain's head at the watcher's last poll, and when that poll ended; null before the first. */
  head: number | null;
  polledAt: number | null;
  /** The next block the watcher will scan; null before its first address or poll. */
  nextBlock: number | null;
  /** Blocks between the head and the last block scanned; null when either is unknown. */
  lagBlocks: number | null;
}

/** The in-memory engines: what waits in their queues and what they hold open. */
export interface EngineQueues {
  spot: { pair: string; queued: number; openOrders: number }[];
  futures: { queued: number; openOrders: number; openPositions: number; triggers: number };
  cycle: { openOrders: number; full: boolean };
  /** Ledger writes waiting for the ledger's lock (on the core: commands waiting for the sequencer's next batch). */
  ledger: { queued: number };
  /** The sequenced core, when the server runs on it (HALYARD_MONEY_CORE); null on SQL. */
  core: CoreStatus | null;
}

/** Where the sequenced core stands: what it has journaled, what SQL holds, its latest snapshot. */
export interface CoreStatus {
  /** The last command journaled and applied. */
  sequence: number;
  /** How far SQL holds what the commands did (the projection's watermark); `sequence - projected` is the lag. */
  projected: number;
  /** The latest snapshot written since the start (its sequence and time), or null before the first. */
  snapshot: { seq: number; at: number } | null;
  /** Where this start's recovery began (a snapshot's sequence) and how many journaled commands it replayed. */
  recovered: { snapshotSeq: number; replayed: number };
}

/** GET /admin/dashboard (permission dashboard.read). */
export interface Dashboard {
  at: number;
  /** The start of the current UTC day: "today" below. */
  dayStart: number;
  users: { total: number; newToday: number };
  depositsToday: DayFlow;
  withdrawalsToday: DayFlow;
  /** Withdrawals waiting for an operator: above the approval threshold, or flagged by the sender. */
  withdrawals: { review: number; flagged: number };
  openAppeals: number;
  kycQueue: number;
  /** The last run of the books check (the first look at the dashboard runs it; POST /admin/dashboard/audit runs it again). */
  books: BooksCheck;
  chains: ChainWatcherStatus[];
  engines: EngineQueues;
}

/** A user as the search lists them. `email` and `phone` are masked without pii.read. */
export interface AdminUserRow {
  id: number;
  email: string | null;
  areaCode: string | null;
  phone: string | null;
  walletAddress: string | null;
  invitationCode: string;
  parentId: number | null;
  createdAt: number;
}

/** GET /admin/users?q=&page=&limit= (users.read). */
export interface AdminUserPage {
  items: AdminUserRow[];
  total: number;
  page: number;
  limit: number;
  /** False when contact fields are masked (the operator lacks pii.read). */
  unmasked: boolean;
}

/** The latest identity verification submission; shown only with pii.read. */
export interface AdminKycSubmission {
  id: number;
  name: string;
  idNumber: string;
  /** The photo's address on the operator route /admin/uploads/<name> (each view audited). */
  photoUrl: string;
  state: 'review' | 'failed' | 'succeeded';
  reason: string | null;
  submittedAt: number;
  decidedAt: number | null;
  decidedBy: string | null;
}

export interface AdminBalance {
  wallet: string;
  coin: string;
  available: string;
  locked: string;
  total: string;
}

/** A spot order or futures entrust, open or recent. */
export interface AdminOrder {
  market: 'spot' | 'futures';
  id: number;
  symbol: string;
  side: string;
  style: string;
  price: string;
  amount: string;
  filled: string;
  state: string;
  time: number;
}

export interface AdminPosition {
  product: 'futures' | 'cycle';
  id: number;
  symbol: string;
  side: string;
  amount: string;
  /** Futures: the entry price; cycle: the opening index price. */
  price: string;
  /** Futures: the margin; cycle: the stake. */
  margin: string;
  openedAt: number;
  /** Cycle: when the contract settles; futures: null. */
  endsAt: number | null;
}

export interface AdminLoginEntry {
  id: number;
  at: number;
  account: string;
  method: 'password' | 'wallet' | 'register';
  result: 'success' | 'wrongPassword' | 'unknownAccount' | 'locked' | 'failed';
  ip: string | null;
  userAgent: string | null;
  device: string;
}

export interface AdminSession {
  id: number;
  device: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface AdminFreeze {
  reason: string;
  setBy: string;
  startsAt: number;
  endsAt: number;
}

/**
 * GET /admin/users/:id (users.read). Without pii.read the contact fields are
 * masked and `kycSubmission` is null (the status stays); with it the view is
 * audited.
 */
export interface AdminUserDetail {
  profile: AdminUserRow & {
    hasLoginPassword: boolean;
    hasFundPassword: boolean;
    lockedUntil: number | null;
    freeze: AdminFreeze | null;
  };
  unmasked: boolean;
  kyc: 'none' | 'review' | 'failed' | 'succeeded';
  kycSubmission: AdminKycSubmission | null;
  balances: AdminBalance[];
  openOrders: AdminOrder[];
  recentOrders: AdminOrder[];
  positions: AdminPosition[];
  logins: AdminLoginEntry[];
  sessions: AdminSession[];
}

/** A deposit as GET /admin/deposits lists it (deposits.read). */
export interface AdminDeposit {
  id: string;
  userId: number;
  coin: string;
  chainId: number;
  chain: string;
  address: string;
  amount: string;
  txHash: string;
  blockNumber: number;
  state: 'waiting' | 'completed' | 'rejected';
  reason: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface AdminDepositPage {
  items: AdminDeposit[];
  total: number;
  page: number;
  limit: number;
}

/**
 * One process of a cluster as it announces itself (docs/cluster.md, "Watching
 * the cluster"): a sequencer node (the leader or a standby) or a gateway.
 */
export interface ClusterMember {
  /** Its node id, or the gateway's id: unique among processes of its kind. */
  id: string;
  role: 'leader' | 'standby' | 'gateway';
  /** The last sequence its state has applied (the leader's sequencer, or a replica). */
  seq: number;
  /** The leader's projection watermark: how far SQL holds the journal. Null on the others. */
  projected: number | null;
  /** When the leader took the lease; null on the others. */
  leadingSince: number | null;
  /** A gateway that holds the `jobs` lease (it runs the index prices, market makers, schedulers); false on the others. */
  runsJobs: boolean;
  startedAt: number;
  /** Halyard's release (HALYARD_VERSION) the process runs. */
  version: string;
  host: string;
  /** When this reading was taken: its answer just now, or its last announcement when it did not answer. */
  seenAt: number;
}

/** A member on the cluster panel: its reading and how far it is behind the leader. */
export interface ClusterMemberRow extends ClusterMember {
  /** Sequences behind the leader's; null when the leader is not known. */
  lag: number | null;
}

/** The leader as the lease and its own announcement say. */
export interface ClusterLeader {
  /** The lease's holder (the lease's KV entry). */
  id: string;
  /** The lease entry's revision: it moves at each renewal. */
  leaseRevision: number;
  /** When it took the lease, as it announced; null before its first announcement. */
  since: number | null;
  /** Its last sequence, SQL's watermark and the lag between them; null before its first announcement. */
  seq: number | null;
  projected: number | null;
  projectionLag: number | null;
}

/** GET /admin/cluster in cluster mode: every live process of the cluster. */
export interface ClusterStatus {
  mode: 'cluster';
  /** The cluster's name (HALYARD_CLUSTER). */
  name: string;
  at: number;
  /** Null while no one holds the lease (a failover under way). */
  leader: ClusterLeader | null;
  /** The sequencer nodes first (the leader first), then the gateways, each by id. */
  members: ClusterMemberRow[];
}

/** GET /admin/cluster (permission dashboard.read): one process (the core's panel on the dashboard covers it), or a cluster. */
export type ClusterOverview = { mode: 'single' } | ClusterStatus;
