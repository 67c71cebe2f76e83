/**
 * The live-data protocol of spec §7 "Live data", shared by the server's
 * WebSocket gateway and the web app's socket client.
 *
 * Client → server, as plain text frames:
 * - a subscription key such as `USDT_BTC_trad_1` (main coin, trade coin, kind,
 *   K-line period in minutes); a new key replaces the previous subscription;
 * - `ping`, answered with the text frame `pong`.
 *
 * Server → client: one JSON object per frame, a {@link ServerPush}. Every
 * client gets the broadcast pushes (`overview`, `symbols`, `consymbols`); the
 * market pushes go to the clients subscribed to that market, whatever their
 * period, and `kline` only to those on that period. Money travels as decimal
 * strings; times are epoch milliseconds.
 */

export const MARKET_KINDS = ['trad', 'contract', 'cycle'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

/** K-line bar lengths in minutes (spec §9 period codes): 1 min … 1 week. */
export const KLINE_MINUTES = [1, 5, 15, 30, 60, 240, 1440, 10080] as const;
export type KlineMinutes = (typeof KLINE_MINUTES)[number];

/** The text frames of the heartbeat (spec §4: ping after 30 s idle). */
export const PING = 'ping';
export const PONG = 'pong';

/** One market: spot (`trad`), futures (`contract`) or cycle contracts. */
export interface MarketRef {
  kind: MarketKind;
  maincoin: string;
  tradcoin: string;
}

export interface Subscription extends MarketRef {
  /** K-line period in minutes, or null for a subscription without a chart. */
  mine: KlineMinutes | null;
}

const COIN_PATTERN = /^[A-Z0-9]{1,20}$/;

export function isKlineMinutes(value: number): value is KlineMinutes {
  return (KLINE_MINUTES as readonly number[]).includes(value);
}

function isMarketKind(value: string): value is MarketKind {
  return (MARKET_KINDS as readonly string[]).includes(value);
}

/** `USDT_BTC_trad`: the key market pushes carry (main coin first, as the spec's subscription). */
export function marketKey(market: MarketRef): string {
  return `${market.maincoin}_${market.tradcoin}_${market.kind}`;
}

/** `USDT_BTC_trad_1`: what the client sends, and the key `kline` pushes carry. */
export function subscriptionKey(subscription: Subscription): string {
  const base = marketKey(subscription);
  return subscription.mine === null ? base : `${base}_${subscription.mine}`;
}

/**
 * Parses a subscription string; coins are upper-cased. Null for anything that
 * is not `MAIN_TRADE_kind` or `MAIN_TRADE_kind_minutes` with a known period.
 */
export function parseSubscriptionKey(text: string): Subscription | null {
  const parts = text.trim().split('_');
  if (parts.length !== 3 && parts.length !== 4) return null;
  const [main, trade, kind, period] = parts as [string, string, string, string | undefined];
  const maincoin = main.toUpperCase();
  const tradcoin = trade.toUpperCase();
  if (!COIN_PATTERN.test(maincoin) || !COIN_PATTERN.test(tradcoin) || !isMarketKind(kind)) return null;
  if (period === undefined) return { kind, maincoin, tradcoin, mine: null };
  if (!/^\d{1,5}$/.test(period)) return null;
  const mine = Number(period);
  if (!isKlineMinutes(mine)) return null;
  return { kind, maincoin, tradcoin, mine };
}

/** A market's 24-hour figures (spec §3 pair fields price, rise, high, low, volume). */
export interface MarketTicker {
  maincoin: string;
  tradcoin: string;
  /** Last price. */
  price: string;
  /** Percent change against the price 24 h ago, 2 decimals ("-1.25"). */
  rise: string;
  high: string;
  low: string;
  /** Traded amount (in the trade coin) over the last 24 h. */
  volume: string;
  /** Time of the last price. */
  ts: number;
}

/** Spec §3 "Market pair (spot)", as the symbol and overview lists carry it. */
export interface SpotSymbolRow {
  autoid: number;
  tradcoin: string;
  maincoin: string;
  price: string;
  rise: string;
  volume: string;
  state: number;
  plate: number;
  minnumber: string;
  price_accuracy: number;
  amount_accuracy: number;
  buyprice: string;
  sellprice: string;
  unit: string;
  isOptional: boolean;
}

/** Spec §3 "Futures pair": the spot fields plus fee rate, size and leverage caps, names. */
export interface FuturesSymbolRow extends SpotSymbolRow {
  gas: string;
  maxnumber: string;
  max_lever: number;
  chinaname: string;
  symbol: string;
}

/** Spec §3 "Order book level". */
export interface DepthLevel {
  price: string;
  amount: string;
}

/** One print of the latest-trades list (`top`, `contop`). */
export interface TradeRow {
  price: string;
  amount: string;
  /** The taker's side. */
  type: 'buy' | 'sell';
  wdate: number;
}

/** One row of the cycle screen's top orders (spec §2: time, direction, income, last profit). */
export interface CycleTopRow {
  wdate: number;
  type: 'buy' | 'sell';
  /** What the outcome earned: a win's income after fee, '0' for a loss or a draw. */
  income: string;
  last_profit: string;
}

/** K-line rows in the spec's packed form: `yyyymmddhhmmss|open|high|low|close|volume`, UTC, oldest first. */
export interface KlineSeries {
  series: string[];
}

interface Push<T extends string, D> {
  type: T;
  /** Server time of the push. */
  ts: number;
  data: D;
}

interface MarketPush<T extends string, D> extends Push<T, D> {
  /** {@link marketKey} of the market, e.g. `USDT_BTC_trad`. */
  key: string;
}

export type OverviewPush = Push<'overview', SpotSymbolRow[]>;
export type SymbolsPush = Push<'symbols', SpotSymbolRow[]>;
export type ConsymbolsPush = Push<'consymbols', FuturesSymbolRow[]>;
export type BroadcastPush = OverviewPush | SymbolsPush | ConsymbolsPush;

export type InfoPush = MarketPush<'info' | 'coninfo' | 'cycleinfo', MarketTicker>;
export type DepthPush = MarketPush<'buy' | 'sell', DepthLevel[]>;
export type TopPush = MarketPush<'top' | 'contop', TradeRow[]>;
export type CycleTopPush = MarketPush<'cycletop', CycleTopRow[]>;
/** Live K-line update: the bars that changed, `key` is the {@link subscriptionKey} with the period. */
export interface KlinePush extends MarketPush<'kline', KlineSeries> {
  mine: KlineMinutes;
}
export type MarketDataPush = InfoPush | DepthPush | TopPush | CycleTopPush | KlinePush;

/** A refused subscription; `msg` is localised from the socket's `lang` query or Accept-Language. */
export type ErrorPush = Push<'error', { msg: string }>;

export type ServerPush = BroadcastPush | MarketDataPush | ErrorPush;
export type PushType = ServerPush['type'];

/**
 * Snapshot pushes: each replaces the previous one of its type and key, so the
 * gateway may drop all but the latest within a coalescing window. `kline` and
 * the trade lists are not here: their frames carry changes a client must see.
 */
export const COALESCED_PUSH_TYPES: readonly PushType[] = [
  'overview',
  'symbols',
  'consymbols',
  'info',
  'coninfo',
  'cycleinfo',
  'buy',
  'sell',
];

/** The info push type of each market kind. */
export const INFO_PUSH_TYPE: Record<MarketKind, InfoPush['type']> = {
  trad: 'info',
  contract: 'coninfo',
  cycle: 'cycleinfo',
};
