import type { DepthLevel, MarketTicker, ServerPush, SpotSymbolRow, TradeRow } from '@halyard/protocol';
import { marketKey, subscriptionKey } from '@halyard/protocol';
import { type OrderSide, type OrderStyle, SPOT_OPEN_ORDERS_POLL_MS } from '@halyard/rules';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';
import { SESSION_KEYS, session } from '../../shared/storage.ts';
import { readTradePair, storeTradePair } from '../pairs/trade-pair.ts';

export interface SpotPair {
  tradcoin: string;
  maincoin: string;
}

export const DEFAULT_SPOT_PAIR: SpotPair = { tradcoin: 'BTC', maincoin: 'USDT' };

/** GET /trad/trad `info`: the pair row plus its limits, fees and 24 h range. */
export interface SpotInfo extends SpotSymbolRow {
  maxnumber: string;
  maker_fee: string;
  taker_fee: string;
  high: string;
  low: string;
}

export interface SpotSnapshot {
  info: SpotInfo;
  buy: DepthLevel[];
  sell: DepthLevel[];
  top: TradeRow[];
}

/** Spec §3 "Open order (spot)" with its fills, as /trad/entrustOrder and entrustHistory answer. */
export interface SpotOrder {
  autoid: number;
  id: string;
  type: OrderSide;
  style: OrderStyle;
  price: string;
  number: string;
  unfilled: string;
  deal_amount: string;
  deal_money: string;
  /** Fee paid in `feeCoin` (the coin received). */
  fee: string;
  feeCoin: string;
  /** Fee paid in HAL instead (fee deduction, issue 17). */
  feeHal: string;
  wdate: number;
  state: 'unfilled' | 'partial' | 'filled' | 'cancelled' | 'partially_cancelled';
  tradcoin: string;
  maincoin: string;
}

export interface SpotAccount {
  balance: { mainusable: string; tradusable: string };
  entrust_order: SpotOrder[];
}

interface OrderPage {
  list: SpotOrder[];
  count: number;
  page: number;
  limit: number;
}

export const HISTORY_PAGE_SIZE = 15;

function isPush(message: unknown): message is ServerPush {
  return typeof message === 'object' && message !== null && 'type' in message && 'data' in message;
}

/** The pair the trade screen shows, kept for the session (spec §3 selectedCoin). */
export function readSelectedPair(): SpotPair {
  return readTradePair('spot', DEFAULT_SPOT_PAIR);
}

export function storeSelectedPair(pair: SpotPair): void {
  storeTradePair('spot', pair);
}

/** Spec §4: the buy/sell tab is kept per session, buy "0", sell "1". */
export function readTradeSide(): OrderSide {
  return session.get(SESSION_KEYS.tradeType) === '1' ? 'sell' : 'buy';
}

export function storeTradeSide(side: OrderSide): void {
  session.set(SESSION_KEYS.tradeType, side === 'sell' ? '1' : '0');
}

/** Applies one live push of the pair to the held snapshot; other pushes leave it as it is. */
export function applySpotPush(held: SpotSnapshot, push: ServerPush): SpotSnapshot {
  switch (push.type) {
    case 'info': {
      const ticker: MarketTicker = push.data;
      return {
        ...held,
        info: {
          ...held.info,
          price: ticker.price,
          rise: ticker.rise,
          high: ticker.high,
          low: ticker.low,
          volume: ticker.volume,
        },
      };
    }
    case 'buy':
      return { ...held, buy: push.data };
    case 'sell':
      return { ...held, sell: push.data };
    case 'top':
      return { ...held, top: push.data };
    default:
      return held;
  }
}

/** The market pushes of one spot pair (info, buy, sell, top, kline) to `listener`. */
export function onSpotPush(pair: SpotPair, listener: (push: ServerPush) => void): () => void {
  const key = marketKey({ kind: 'trad', ...pair });
  return live().onMessage((message) => {
    if (
      isPush(message) &&
      'key' in message &&
      (message.key === key || String(message.key).startsWith(`${key}_`))
    )
      listener(message);
  });
}

/**
 * GET /trad/trad (pair info, 20+20 book, latest trades), then kept live by the
 * pair's pushes. `subscribe` is false when a chart on the screen owns the subscription.
 */
export function useSpotSnapshot(pair: SpotPair, subscribe = true) {
  const client = useQueryClient();
  const { tradcoin, maincoin } = pair;
  useEffect(() => {
    if (subscribe) live().subscribe(subscriptionKey({ kind: 'trad', tradcoin, maincoin, mine: null }));
    return onSpotPush({ tradcoin, maincoin }, (push) => {
      client.setQueryData<SpotSnapshot>(snapshotKey({ tradcoin, maincoin }), (held) =>
        held ? applySpotPush(held, push) : held,
      );
    });
  }, [client, tradcoin, maincoin, subscribe]);
  return useQuery({
    queryKey: snapshotKey(pair),
    queryFn: () => api.get<SpotSnapshot>('/trad/trad', { tradcoin, maincoin }, { quiet: true }),
  });
}

function snapshotKey(pair: SpotPair) {
  return ['spot', 'trad', pair.tradcoin, pair.maincoin];
}

/** Usable balances and open orders; polled every 5 s while any order is open (spec §9). */
export function useSpotAccount(pair: SpotPair, enabled: boolean) {
  return useQuery({
    queryKey: ['spot', 'account', pair.tradcoin, pair.maincoin],
    queryFn: () => api.get<SpotAccount>('/trad/tradAccount', { ...pair }, { quiet: true }),
    enabled,
    refetchInterval: (query) =>
      (query.state.data?.entrust_order.length ?? 0) > 0 ? SPOT_OPEN_ORDERS_POLL_MS : false,
  });
}

/** Finished orders of the pair, newest first, 15 a page. */
export function useSpotHistory(pair: SpotPair) {
  return useInfiniteQuery({
    queryKey: ['spot', 'history', pair.tradcoin, pair.maincoin],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<OrderPage>('/trad/entrustHistory', { ...pair, page: pageParam, limit: HISTORY_PAGE_SIZE }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((total, page) => total + page.list.length, 0);
      return loaded < last.count ? last.page + 1 : undefined;
    },
  });
}

const ORDER_PATHS = {
  buy: { limit: '/trad/buyLimit', market: '/trad/buyMarket' },
  sell: { limit: '/trad/sellLimit', market: '/trad/sellMarket' },
} as const;

export function placeSpotOrder(
  pair: SpotPair,
  side: OrderSide,
  style: OrderStyle,
  price: string,
  amount: string,
): Promise<SpotOrder> {
  const body = style === 'limit' ? { ...pair, price, number: amount } : { ...pair, number: amount };
  return api.post<SpotOrder>(ORDER_PATHS[side][style], body, { idempotent: true });
}

export function cancelSpotOrder(id: number): Promise<unknown> {
  return api.post('/trad/closeEntrust', { id });
}

/** Cancels every open order of the pair; answers the orders it cancelled. */
export function cancelAllSpotOrders(pair: SpotPair): Promise<SpotOrder[]> {
  return api.post<SpotOrder[]>('/trad/closeAllEntrust', { tradcoin: pair.tradcoin, maincoin: pair.maincoin });
}

/** `/exchangeRecord/BTC_USDT`: the route's data names the pair, trade coin first. */
export function recordPath(pair: SpotPair): string {
  return `/exchangeRecord/${pair.tradcoin}_${pair.maincoin}`;
}

export function pairFromRecordPath(data: string | undefined): SpotPair {
  const [tradcoin, maincoin] = (data ?? '').toUpperCase().split('_');
  return tradcoin && maincoin ? { tradcoin, maincoin } : DEFAULT_SPOT_PAIR;
}
