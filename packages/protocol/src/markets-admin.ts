/**
 * The back office's market settings (issue 18 item 5): what an operator
 * reads and edits of spot pairs, futures contracts and cycle pairs, and what
 * a new listing names (a `market_listing` four-eyes request). Rates are
 * fractions as exact decimal strings ("0.001" is 0.1 %).
 */

export const LISTING_KINDS = ['spot', 'futures', 'cycle'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

/** PUT /admin/markets/spot/:id. */
export interface SpotPairSettings {
  priceAccuracy: number;
  amountAccuracy: number;
  /** Smallest and largest order, in the trade coin. */
  minNumber: string;
  maxNumber: string;
  makerFee: string;
  takerFee: string;
  /** False closes the pair to new orders (resting ones stay and may be cancelled). */
  enabled: boolean;
  sort: number;
}

/** PUT /admin/markets/futures/:id. The lot size (`unit`) is fixed at listing: open positions are counted in it. */
export interface FuturesContractSettings {
  priceAccuracy: number;
  /** Whole lots. */
  minNumber: string;
  maxNumber: string;
  /** 1..125; the leverage choices are the usual ladder up to it, the initial margin rate 1 / it. */
  maxLever: number;
  /** Fee rate on the notional of every fill. */
  fee: string;
  /** Below 1 / maxLever. */
  maintenanceMarginRate: string;
  enabled: boolean;
  sort: number;
}

/** One duration of a cycle pair. */
export interface CycleOptionSettings {
  seconds: number;
  minNumber: string;
  maxNumber: string;
  /** Paid on a win, as a fraction of the stake. */
  profitRate: string;
  /** Lost on a loss, as a fraction of the stake (1: the whole stake). */
  lossRate: string;
  /** Fee, as a fraction of a win's payout. */
  fee: string;
}

/** PUT /admin/markets/cycle/:id: the whole list of durations; an empty list closes the pair. */
export interface CyclePairSettings {
  priceAccuracy: number;
  /** Coins a stake may be paid in. */
  payCoins: string[];
  options: CycleOptionSettings[];
  sort: number;
}

/** The coins of a market: `tradcoin`/`maincoin` (e.g. HAL/USDT). */
export interface MarketCoins {
  tradcoin: string;
  maincoin: string;
}

/**
 * POST /admin/markets/listings: a new market, listed when a second operator
 * (markets.list) approves the `market_listing` request.
 */
export type MarketListingRequest =
  | ({ kind: 'spot'; reason: string } & MarketCoins & SpotPairSettings)
  | ({ kind: 'futures'; reason: string; name: string; unit: string } & MarketCoins & FuturesContractSettings)
  | ({ kind: 'cycle'; reason: string } & MarketCoins & CyclePairSettings);

/** GET /admin/markets: every market with its id and settings. */
export interface MarketSettingsList {
  spot: Array<{ id: number } & MarketCoins & SpotPairSettings>;
  futures: Array<{ id: number; name: string; unit: string } & MarketCoins & FuturesContractSettings>;
  cycle: Array<{ id: number } & MarketCoins & CyclePairSettings>;
}
