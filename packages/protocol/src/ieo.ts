/**
 * Token launches (IEO) on the wire (spec §1, §3 "IEO project", §4, §7 IEO;
 * issue 15), shared by the server's /ieo routes and the web app. Amounts and
 * prices travel as decimal strings, times as epoch milliseconds.
 */

/** Spec §4 "not open, open, ended", with commit mode's two steps between open and ended. */
export const IEO_STATES = ['not_open', 'open', 'calculating', 'distributing', 'ended', 'cancelled'] as const;
export type IeoState = (typeof IEO_STATES)[number];

/** fcfs: first come, first served until sold out (the spec's "remaining"); commit: pro rata after the window. */
export const IEO_MODES = ['fcfs', 'commit'] as const;
export type IeoMode = (typeof IEO_MODES)[number];

/**
 * When bought tokens become spendable, counted from the end of the window:
 * after `cliffDays`, either one tranche every `intervalDays` (`tranches`) or
 * continuously over `durationDays` (`linear`: what has vested is released on
 * each tick of the server's scheduler, floored to the token's unit). The
 * spec's "lock period in days" is `{ kind: 'tranches', cliffDays: days, tranches: 1, intervalDays: 0 }`.
 */
export const IEO_VESTING_KINDS = ['tranches', 'linear'] as const;
export type IeoVestingKind = (typeof IEO_VESTING_KINDS)[number];
export type IeoVesting =
  | { kind: 'tranches'; cliffDays: number; tranches: number; intervalDays: number }
  | { kind: 'linear'; cliffDays: number; durationDays: number };

/**
 * Who may subscribe (issue 15 "eligibility: KYC level"): the identity module
 * knows one level, a verified identity (spec's "identity verification").
 */
export const IEO_KYC_LEVELS = ['none', 'identity'] as const;
export type IeoKycLevel = (typeof IEO_KYC_LEVELS)[number];

export interface IeoPayCoin {
  paycoin: string;
  /** Pay coin per token. */
  price: string;
}

/** Texts of a project in the nine languages (intro and announcement are sanitised HTML). */
export type IeoTexts = Partial<Record<string, string>>;

/** Spec §3 "IEO project", as /ieo/getIeoList answers it (texts in the request's language). */
export interface IeoProject {
  id: number;
  /** The token sold. */
  coin: string;
  name: string;
  mode: IeoMode;
  state: IeoState;
  startTime: number;
  endTime: number;
  /** Total issued (for sale). */
  total: string;
  /** FCFS: what is left to buy; commit: the supply (allocation happens at the end). */
  remaining: string;
  tokenDecimals: number;
  /** The spec's "lock period in days": the cliff of the vesting schedule. */
  lockDays: number;
  vesting: IeoVesting;
  payCoins: IeoPayCoin[];
  /** Smallest subscription and largest total per user, in tokens. */
  minNumber: string;
  maxNumber: string;
  /** Bonus tokens per subscription, as a fraction of the tokens bought ("0.05" = 5 %). */
  gift: string;
  /** Promotion rebate paid to the subscriber's inviter, as a fraction of the amount paid. */
  rebate: string;
  /** The KYC level a subscriber needs. */
  kycLevel: IeoKycLevel;
  refusedAreaCodes: string[];
  intro: string;
  announcement: string;
  /** Commit mode, live: total committed (in the pay coin), commit count, and committed ÷ (supply × price). */
  committed: string;
  participants: number;
  ratio: string;
  /** Server time of the answer, for countdowns. */
  now: number;
}

export interface IeoTranche {
  seq: number;
  releaseAt: number;
  /** Linear vesting: released continuously from `releaseAt` until this time; null: all at `releaseAt`. */
  until: number | null;
  amount: string;
  /** What of `amount` has been released to spot so far. */
  releasedAmount: string;
  /** Released in full. */
  released: boolean;
}

export type IeoOrderState = 'committed' | 'locked' | 'released' | 'refunded';

/** One subscription (FCFS) or commitment (commit mode) of the signed-in user (/ieo/getIeoOrder). */
export interface IeoOrder {
  id: number;
  projectId: number;
  coin: string;
  name: string;
  mode: IeoMode;
  paycoin: string;
  price: string;
  /** FCFS: what was paid; commit: what was committed (held until allocation). */
  amount: string;
  /** Pay coin spent and returned (commit mode, after allocation). */
  spent: string;
  refund: string;
  /** Tokens bought and bonus tokens (gift); both vest. */
  tokens: string;
  gift: string;
  locked: string;
  released: string;
  /** The next tranche still locked; linear vesting: what is left, released continuously from `releaseAt` until `until`. */
  nextRelease: { releaseAt: number; until: number | null; amount: string } | null;
  tranches: IeoTranche[];
  state: IeoOrderState;
  time: number;
}

/** What /ieo/findPayCoinByCoin answers for each pay coin of a token's project. */
export interface IeoPayCoinBalance extends IeoPayCoin {
  projectId: number;
  /** The signed-in user's usable spot balance of the pay coin ("0" for a visitor). */
  balance: string;
}

/** A commit as the public list shows it: anonymised, enough to recompute every allocation. */
export interface IeoPublicCommit {
  anonId: string;
  committed: string;
  /** After allocation. */
  tokens: string | null;
}

export interface IeoAllocationRound {
  round: number;
  /** Tokens still to share and commitments sharing them at the round's start, in the token's and pay coin's smallest units. */
  pool: string;
  weight: string;
  served: number;
  servedTokens: string;
}

/** A user's allocation proof (issue 15): everything needed to check their allocation by hand. */
export interface IeoAllocationProof {
  projectId: number;
  anonId: string;
  supply: string;
  price: string;
  cap: string;
  tokenDecimals: number;
  totalCommitted: string;
  participants: number;
  oversubscribed: boolean;
  committed: string;
  /** What the commit buys, capped: the most the user could receive. */
  need: string;
  rounds: IeoAllocationRound[];
  /** The round that served this user in full, or null: then tokens = floor(finalPool × committed ÷ finalWeight). */
  servedInRound: number | null;
  finalPool: string;
  finalWeight: string;
  tokens: string;
  spent: string;
  refund: string;
}

/** Operator input for a project (POST /admin/ieo/projects and its edit). */
export interface IeoProjectInput {
  coin: string;
  name: string;
  mode: IeoMode;
  startTime: number;
  endTime: number;
  total: string;
  tokenDecimals: number;
  payCoins: IeoPayCoin[];
  minNumber: string;
  maxNumber: string;
  vesting: IeoVesting;
  gift: string;
  rebate: string;
  kycLevel: IeoKycLevel;
  refusedAreaCodes: string[];
  intro: IeoTexts;
  announcement: IeoTexts;
}
