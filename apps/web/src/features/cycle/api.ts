import type {
  CycleHistoryPage,
  CycleInfo,
  CyclePosition,
  CycleSide,
  CycleTopRow,
  ServerPush,
} from '@halyard/protocol';
import { marketKey } from '@halyard/protocol';
import { CYCLE_HISTORY_PAGE_SIZE, CYCLE_POLL_MS } from '@halyard/rules';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';

/** A cycle pair as the routes name it. */
export interface CyclePair {
  tradcoin: string;
  maincoin: string;
}

export const DEFAULT_PAIR: CyclePair = { tradcoin: 'BTC', maincoin: 'USDT' };

function isPush(message: unknown): message is ServerPush {
  return typeof message === 'object' && message !== null && 'type' in message && 'data' in message;
}

/** The market pushes of one cycle pair (cycleinfo, cycletop, kline), to `listener`. */
export function onPairPush(pair: CyclePair, listener: (push: ServerPush) => void): () => void {
  const key = marketKey({ kind: 'cycle', ...pair });
  return live().onMessage((message) => {
    if (isPush(message) && 'key' in message && String(message.key).startsWith(key)) listener(message);
  });
}

export function useCycleSymbols() {
  return useQuery({ queryKey: ['cycle', 'symbols'], queryFn: () => api.get<CycleInfo[]>('/cycle/symbols') });
}

/**
 * The pair's info (spec §3 "Cycle pair info"), kept fresh by the `cycleinfo`
 * push. The market module also pushes a plain ticker under the same type; it
 * is merged in, so `new_date` falls back to the ticker's time.
 */
export function useCycleInfo(pair: CyclePair) {
  const client = useQueryClient();
  const { tradcoin, maincoin } = pair;
  useEffect(() => {
    const queryKey = infoKey({ tradcoin, maincoin });
    return onPairPush({ tradcoin, maincoin }, (push) => {
      if (push.type !== 'cycleinfo') return;
      client.setQueryData<CycleInfo>(queryKey, (held) => {
        if (!held) return held;
        const data: Partial<CycleInfo> = push.data;
        return {
          ...held,
          ...data,
          new_date: data.new_date ?? push.data.ts,
          height: data.height ?? push.data.high,
        };
      });
    });
  }, [client, tradcoin, maincoin]);
  return useQuery({
    queryKey: infoKey(pair),
    queryFn: () => api.get<CycleInfo>('/cycle/info', { tradcoin, maincoin }),
  });
}

function infoKey(pair: CyclePair) {
  return ['cycle', 'info', pair.tradcoin, pair.maincoin];
}

/** Open positions; polled every 3 s while any is open (spec §9). */
export function usePositions(pair: CyclePair, enabled: boolean) {
  return useQuery({
    queryKey: ['cycle', 'positions', pair.tradcoin, pair.maincoin],
    queryFn: () => api.get<CyclePosition[]>('/cycle/positionByCoin', { ...pair }, { quiet: true }),
    enabled,
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? CYCLE_POLL_MS : false),
  });
}

/** Settled orders, 15 a page; load-more asks the next page until count equals what is loaded (spec §4). */
export function useHistory(pair: CyclePair | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['cycle', 'history', pair?.tradcoin ?? '*', pair?.maincoin ?? '*'],
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      pair
        ? api.get<CycleHistoryPage>('/cycle/tradHistoryByCoin', {
            ...pair,
            page: pageParam,
            limit: CYCLE_HISTORY_PAGE_SIZE,
          })
        : api.get<CycleHistoryPage>('/cycle/tradHistory', {
            page: pageParam,
            limit: CYCLE_HISTORY_PAGE_SIZE,
          }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((total, page) => total + page.list.length, 0);
      return loaded < last.count ? last.page + 1 : undefined;
    },
  });
}

/** The latest 20 settled orders of the pair, replaced by each `cycletop` push. */
export function useTopOrders(pair: CyclePair) {
  const client = useQueryClient();
  const { tradcoin, maincoin } = pair;
  useEffect(
    () =>
      onPairPush({ tradcoin, maincoin }, (push) => {
        if (push.type === 'cycletop')
          client.setQueryData<CycleTopRow[]>(topKey({ tradcoin, maincoin }), push.data);
      }),
    [client, tradcoin, maincoin],
  );
  return useQuery({
    queryKey: topKey(pair),
    queryFn: () => api.get<CycleTopRow[]>('/cycle/topOrders', { tradcoin, maincoin }),
  });
}

function topKey(pair: CyclePair) {
  return ['cycle', 'top', pair.tradcoin, pair.maincoin];
}

/** Spec §4: the server clock offset, fetched once when the screen starts. */
export function useServerOffset() {
  return useQuery({
    queryKey: ['cycle', 'serverOffset'],
    queryFn: async () => {
      const sentAt = Date.now();
      const serverNow = await api.get<number>('/home/systemTime', {}, { quiet: true });
      // Half the round trip: the server read its clock about midway.
      return serverNow - Math.round((sentAt + Date.now()) / 2);
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The usable balance of the pay coin in the spot wallet, which funds cycle stakes. */
export function useUsable(paycoin: string, enabled: boolean) {
  return useQuery({
    queryKey: ['cycle', 'usable', paycoin],
    enabled,
    queryFn: () => api.get<{ usable: string }>('/account/balance', { coin: paycoin }, { quiet: true }),
  });
}

export interface CycleOrderBody extends CyclePair {
  number: string;
  paycoin: string;
  lever: number;
}

export function placeOrder(side: CycleSide, body: CycleOrderBody): Promise<CyclePosition> {
  return api.post<CyclePosition>(side === 'buy' ? '/cycle/buyMarket' : '/cycle/sellMarket', body, {
    idempotent: true,
  });
}

export function positionById(orderid: string): Promise<CyclePosition[]> {
  return api.get<CyclePosition[]>('/cycle/positionById', { orderId: orderid }, { quiet: true });
}
