/**
 * Business constants of spec §9 that the server and the web app both need.
 * Durations are in milliseconds, sizes in bytes, lengths in characters.
 */

export const USERNAME_LENGTH = { min: 6, max: 16 } as const;
export const PASSWORD_LENGTH = { min: 6, max: 20 } as const;
export const PAY_PASSWORD_LENGTH = 6;
export const PHONE_LENGTH = 11;
export const BANK_CARD_LENGTH = { min: 16, max: 19 } as const;
export const TICKET_CONTENT_LENGTH = { min: 10, max: 200 } as const;

export const IMAGE_MAX_MB = 10;
export const IMAGE_MAX_BYTES = IMAGE_MAX_MB * 1024 * 1024;

/** "Positive number: up to 8 decimals." */
export const POSITIVE_NUMBER_DECIMALS = 8;
/** "Price: up to 13 integer digits and up to 6 decimals." */
export const PRICE_INTEGER_DIGITS = 13;
export const PRICE_DECIMALS = 6;

/** Only Ethereum (1) and BNB chain (56) are accepted; 56 is the default. */
export const CHAINS = [1, 56] as const;
export type ChainId = (typeof CHAINS)[number];
export const DEFAULT_CHAIN: ChainId = 56;

export const PASSWORD_CHANGE_LOCK_MS = 24 * 60 * 60 * 1000;
export const MERCHANT_PAYMENT_WINDOW_MS = 20 * 60 * 1000;

export const REQUEST_TIMEOUT_MS = 10_000;
export const TOAST_MS = 2000;
export const HEARTBEAT_MS = 30_000;
export const RECONNECT_MS = 15_000;
export const SUBSCRIPTION_RETRY_MS = 1500;

export const FUTURES_POLL_MS = 3000;
export const CYCLE_POLL_MS = 3000;
export const SPOT_OPEN_ORDERS_POLL_MS = 5000;
/** A cycle tick further than this from the synced clock clears the quantity and reloads the page. */
export const CYCLE_CLOCK_TOLERANCE_MS = 5000;
/** Delay before the reload that follows a closed socket or a clock drift on the cycle page. */
export const CYCLE_RELOAD_DELAY_MS = 3000;
export const CYCLE_RESULT_POLL = { repeats: 4, intervalMs: 1000 } as const;
export const CYCLE_HISTORY_PAGE_SIZE = 15;
export const TOP_ORDERS = 20;

export const DEBOUNCE_MS = 300;

/**
 * K-line periods as the spec codes them: `minutes` is the bar length and `type`
 * the series kind (-1 the minute line, 0 intraday bars, 1 daily, 2 weekly).
 */
export const KLINE_PERIODS = [
  { id: 'line', minutes: 1, type: -1 },
  { id: '1m', minutes: 1, type: 0 },
  { id: '5m', minutes: 5, type: 0 },
  { id: '15m', minutes: 15, type: 0 },
  { id: '30m', minutes: 30, type: 0 },
  { id: '1h', minutes: 60, type: 0 },
  { id: '4h', minutes: 240, type: 0 },
  { id: '1d', minutes: 1440, type: 1 },
  { id: '1w', minutes: 10080, type: 2 },
] as const;
export type KlinePeriod = (typeof KLINE_PERIODS)[number];
export type KlinePeriodId = KlinePeriod['id'];
export const KLINE_HISTORY_COUNT = 300;
export const KLINE_PAGE_SIZE = { minute: 40, history: 30 } as const;
export const KLINE_MAX_REQUEST_COUNT = 1000;
export const KLINE_MINUTE_DAY_COUNT = 15;
/** The spec's default period of the cycle chart, an index into KLINE_PERIODS (30-minute bars). */
export const CYCLE_CHART_DEFAULT_PERIOD_INDEX = 4;

export const SPOT_BOOK_MAX_LEVELS = 20;
export const SPOT_BOOK_MIN_ROWS = 6;
export const FUTURES_BOOK_ROWS = 7;
/** Depth bar width = value × 800 / total, capped at 100 %. */
export const DEPTH_BAR_SCALE = 800;

/** The spot amount slider: whole percents 0–100, quick marks every 25 % (as Binance; the spec said 20). */
export const SLIDER = { min: 0, max: 100, markStep: 25 } as const;

/** Decimals shown for each kind of figure; display always floors. */
export const DISPLAY_PRECISION = {
  balance: 4,
  localCurrency: 2,
  total: 8,
  margin: 8,
  fee: 8,
  profit: 4,
  percent: 2,
} as const;

export const SHORT_ADDRESS = { head: 6, tail: 4 } as const;
