/**
 * Invites, team and commissions on the wire (spec §1, §2, §3 "Team member",
 * §7 /user/getInvitationUrl and /user/getMyTeam, §9 rebate tiers; issue 17),
 * shared by the server's /user and /referral routes and the web screens
 * /inviteFriends and /myTeam. Amounts and rates travel as decimal strings
 * ("0.2" = 20 %), times as epoch milliseconds. The tier table and the other
 * reward-rule constants live in @halyard/rules (referral.ts).
 */

/** The rebate tiers of spec §9, by the inviter's 24 h time-weighted average HAL holdings. */
export const REFERRAL_TIERS = [1, 2, 3] as const;
export type ReferralTier = (typeof REFERRAL_TIERS)[number];

/** Level 1: the user invited this friend; level 2: a friend of a friend (the inviter's inviter earns). */
export type ReferralLevel = 1 | 2;

/**
 * Where a commission came from: the trading fees of spot, futures and cycle
 * contracts, and `ieo`, a token launch's promotion rebate on what a friend paid.
 */
export const REFERRAL_PRODUCTS = ['spot', 'futures', 'cycle', 'ieo'] as const;
export type ReferralProduct = (typeof REFERRAL_PRODUCTS)[number];

/**
 * Why a fee-bearing trade earned nothing (OKX's "why did this trade earn
 * nothing"): `house` a house or market-maker account was the invitee;
 * `counterparty` the trade was between inviter and invitee; `sameIdentity`
 * inviter and invitee share one KYC identity.
 */
export const REFERRAL_EXCLUSIONS = ['house', 'counterparty', 'sameIdentity'] as const;
export type ReferralExclusion = (typeof REFERRAL_EXCLUSIONS)[number];

/** GET /user/getInvitationUrl: the user's code and the registration link built on the public address (`…/register?code=CODE`). */
export interface InvitationUrl {
  code: string;
  url: string;
}

/** Spec §3 "Team member", one row of GET /user/getMyTeam. */
export interface TeamMember {
  /** The member's user id, masked (first and last digits kept). */
  userId: string;
  level: ReferralLevel;
  /** When the member joined the team (registration or a later bind). */
  invitedAt: number;
  /** What the member's fees earned the user, per coin (after kickback), e.g. `{ USDT: "1.2" }`. */
  profit: Record<string, string>;
  /** The same, valued in USDT at the index (approximate, for sorting and a single figure). */
  profitUsdt: string;
}

/**
 * GET /user/getMyTeam?page=&limit=&level=&search= — `level` 1 or 2 filters the
 * list, `search` matches the start of the member's user id.
 */
export interface MyTeam {
  /** Direct and level-2 members together. */
  teamSize: number;
  directCount: number;
  levelTwoCount: number;
  /** The user's own invitation code ("direct promotion code"). */
  code: string;
  list: TeamMember[];
  count: number;
  page: number;
  limit: number;
}

/** Spec §9 as the reward rules show it, from @halyard/rules. */
export interface ReferralRules {
  tiers: { tier: ReferralTier; minHoldings: string; rate: string }[];
  /** What the inviter's inviter earns on the friend's fee. */
  levelTwoRate: string;
  /** The base of every rate: the trading fee the friend paid, in its coin. */
  base: 'fee';
  /** Discount on fees paid in HAL (operator setting, 10 % by default). */
  halDiscount: string;
  /** Days after sign-up during which a user without an inviter may bind a code. */
  bindWindowDays: number;
  /** How long the holding average runs over. */
  averageWindowHours: number;
  /** How often commissions are credited (computed with each fee, paid by a sweep): 60 s. */
  payoutIntervalSeconds: number;
}

/** Commission totals per coin (after kickback), all time and for the last 24 h. */
export interface ReferralCoinTotal {
  coin: string;
  total: string;
  last24h: string;
}

/** Commission totals per day (UTC) and coin. */
export interface ReferralDayTotal {
  /** UTC date, YYYY-MM-DD. */
  day: string;
  coin: string;
  amount: string;
}

/**
 * GET /referral/summary. The tier is fixed for each UTC day from the
 * time-weighted average over the 24 h before that day's midnight
 * (`tierAverageHal`), so moving HAL in during the day changes nothing until
 * the next day, and then only by its share of the 24 h.
 */
export interface ReferralSummary {
  tier: ReferralTier;
  /** The level-1 rate of the tier. */
  rate: string;
  /** The average today's tier was computed from. */
  tierAverageHal: string;
  /** Today's tier holds until then (the next UTC midnight). */
  tierUntil: number;
  /** Time-weighted average HAL holdings over the last 24 h, up to now: tomorrow's tier if nothing changes. */
  averageHal: string;
  /** HAL held now (all wallets). */
  holdingHal: string;
  /** The next tier above the one `averageHal` gives and the average it needs; null at the top tier. */
  nextTier: { tier: ReferralTier; rate: string; minHoldings: string; missing: string } | null;
  /** The part of the rate given back to each invitee. */
  kickbackRate: string;
  /** Whether this user's fees are paid in HAL when there is enough. */
  feeDeduction: boolean;
  byCoin: ReferralCoinTotal[];
  /** The last 30 days that earned something, newest first. */
  byDay: ReferralDayTotal[];
  rules: ReferralRules;
  /** Whether a code may still be bound (no inviter, within the window); when it closes. */
  canBind: boolean;
  bindUntil: number | null;
  /** The inviter's masked id, if any. */
  inviter: string | null;
}

/** One commission row (GET /referral/commissions): the trade that earned it and how. */
export interface ReferralCommission {
  id: number;
  time: number;
  /** The friend who paid the fee, masked. */
  friend: string;
  level: ReferralLevel;
  product: ReferralProduct;
  /** The trade (fill or cycle order) the fee came from; for `ieo`, the launch order (`ieo:order:<id>`). */
  tradeId: string;
  /** The base of the rate: the fee the friend paid; for `ieo`, what the friend paid for the tokens. */
  fee: string;
  feeCoin: string;
  tier: ReferralTier | null;
  rate: string;
  /** What the user received (after kickback), in feeCoin. */
  amount: string;
  /** What was given back to the friend, in feeCoin. */
  kickback: string;
  excluded: ReferralExclusion | null;
  /**
   * When the amount was credited to the spot wallet: commissions are computed
   * with the fee and credited by a payout sweep every minute (null: pending).
   */
  paidAt: number | null;
}

/** GET /referral/commissions?page=&limit=&product=&coin=&from=&to= (also the filters of commissions.csv). */
export interface ReferralCommissionQuery {
  page?: number;
  limit?: number;
  product?: ReferralProduct;
  coin?: string;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}

export interface ReferralCommissionPage {
  list: ReferralCommission[];
  count: number;
  page: number;
  limit: number;
}

/** POST /referral/bind: a user without an inviter binds a code within the window, once. */
export interface ReferralBindInput {
  code: string;
}

/** POST /referral/kickback: the part of the level-1 rate given back to invitees ("0.05"), at most the own rate. */
export interface ReferralKickbackInput {
  rate: string;
}

/** POST /user/feeDeduction: pay trading fees in HAL at a discount when there is enough. */
export interface FeeDeductionInput {
  enabled: boolean;
}

/** GET/POST /admin/referral/settings (permission 'referral.settings'). */
export interface ReferralSettings {
  /** Discount on fees paid in HAL, a fraction in [0, 0.5]. */
  halDiscount: string;
  /** User accounts run as market makers: their fees pay no commission and they earn none (exclusion `house`). */
  marketMakers: number[];
}
