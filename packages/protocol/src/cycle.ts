/**
 * Cycle contracts on the wire (spec §3 "Cycle pair info", "Cycle position";
 * AMENDMENTS A3), shared by the server's /cycle routes and the web app.
 * Money and rates travel as decimal strings; rates are fractions of 1
 * ("0.85" = 85 %); times are epoch milliseconds.
 */
import type { MarketTicker } from './realtime.ts';

/** One duration option of a pair (spec `lever` list). */
export interface CycleLeverOption {
  /** Duration in seconds. */
  lever: number;
  /** Smallest and largest stake. */
  minnumber: string;
  maxnumber: string;
  /** Paid on a win, as a fraction of the stake. */
  profitGas: string;
  /** Lost on a loss, as a fraction of the stake. */
  lossGas: string;
  /** Fee, as a fraction of the payout, charged on a win only. */
  gas: string;
}

/**
 * Spec §3 "Cycle pair info". It is also the `cycleinfo` push of the cycle
 * module, so it carries every {@link MarketTicker} field too (`high` = `height`).
 */
export interface CycleInfo extends MarketTicker {
  autoid: number;
  /** The 24 h high (the spec's spelling). */
  height: string;
  price_accuracy: number;
  /** Server time of the last index tick: the page compares it with its synced clock. */
  new_date: number;
  /** Where the index price comes from (AMENDMENTS A3). */
  source: string;
  /** Coins a stake may be paid in. */
  limit: { paycoin: string }[];
  lever: CycleLeverOption[];
}

export type CycleSide = 'buy' | 'sell';
/** 'void': no index price was recorded near the expiry instant; the stake was returned (see CycleVoidReason). */
export type CycleResult = 'win' | 'loss' | 'draw' | 'void';

/**
 * Why a contract was void (AMENDMENTS A3: the outcome is the index price at
 * the expiry instant): the latest recorded tick at or before expiry
 * (close_price, close_ts) was more than `tolerance_ms` older than it, or there
 * was none (the opening tick is shown). The stake was returned in full.
 */
export interface CycleVoidReason {
  code: 'no_index_price_at_expiry';
  tolerance_ms: number;
}

/** Spec §3 "Cycle position", with the settlement proof of AMENDMENTS A3. */
export interface CyclePosition {
  /** The order number (text) and row id: /cycle/positionById takes either. */
  orderid: string;
  autoid: number;
  tradcoin: string;
  maincoin: string;
  paycoin: string;
  /** buy = up, sell = down. */
  type: CycleSide;
  /** The opening index price. */
  price: string;
  /** The stake. */
  number: string;
  /** Acceptance time. */
  wdate: number;
  /** Duration in seconds. */
  lever: number;
  profit_gas: string;
  loss_gas: string;
  gas: string;
  /** What a win pays after its fee (known when the order is placed). */
  income: string;
  /** The realised profit: + on a win, − on a loss, 0 on a draw and while open. */
  last_profit: string;
  state: 'open' | 'settled';
  result: CycleResult | null;
  /** wdate + lever seconds: the instant whose index price settles the order. */
  expires_at: number;
  open_price: string;
  open_ts: number;
  open_source: string;
  close_price: string | null;
  close_ts: number | null;
  close_source: string | null;
  /** The fee charged (win only); '0' otherwise. */
  fee: string;
  settled_at: number | null;
  /** Set when result is 'void'. */
  void_reason: CycleVoidReason | null;
}

export interface CycleHistoryPage {
  list: CyclePosition[];
  count: number;
  page: number;
  limit: number;
}
