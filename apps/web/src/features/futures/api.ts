import type { FuturesSymbolRow, ServerPush } from '@halyard/protocol';
import { marketKey } from '@halyard/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';
import { pollDelay } from './calc.ts';
import type {
  ContractAccount,
  ContractInfoReply,
  Entrust,
  FuturesPair,
  OrderStyle,
  Page,
  Position,
  Side,
  TdMode,
  Trigger,
} from './types.ts';

export const DEFAULT_PAIR: FuturesPair = { tradcoin: 'BTC', maincoin: 'USDT' };

function isPush(message: unknown): message is ServerPush {
  return typeof message === 'object' && message !== null && 'type' in message && 'data' in message;
}

/** Every push the live connection brings, to `listener`, until the returned function is called. */
function onPush(listener: (push: ServerPush) => void): () => void {
  return live().onMessage((message) => {
    if (isPush(message)) listener(message);
  });
}

/** The futures subscription key (spec §7: main coin, trade coin, kind). */
export function subscribeContract(pair: FuturesPair): void {
  live().subscribe(marketKey({ kind: 'contract', ...pair }));
}

/** The contract list for the drawer, replaced by each `consymbols` push. */
export function useFuturesSymbols() {
  const client = useQueryClient();
  useEffect(
    () =>
      onPush((push) => {
        if (push.type === 'consymbols') client.setQueryData(['futures', 'symbols'], push.data);
      }),
    [client],
  );
  return useQuery({
    queryKey: ['futures', 'symbols'],
    queryFn: () => api.get<FuturesSymbolRow[]>('/contract/symbols', {}, { quiet: true }),
  });
}

function infoKey(pair: FuturesPair) {
  return ['futures', 'info', pair.tradcoin, pair.maincoin];
}

/** The contract's info and 7+7 book, kept live by `coninfo`, `buy` and `sell` pushes of its key. */
export function useContractInfo(pair: FuturesPair) {
  const client = useQueryClient();
  const { tradcoin, maincoin } = pair;
  useEffect(() => {
    const key = marketKey({ kind: 'contract', tradcoin, maincoin });
    const queryKey = infoKey({ tradcoin, maincoin });
    return onPush((push) => {
      if (!('key' in push) || push.key !== key) return;
      client.setQueryData<ContractInfoReply>(queryKey, (held) => {
        if (!held) return held;
        if (push.type === 'coninfo') {
          const { price, rise, high, low } = push.data;
          return { ...held, info: { ...held.info, price, rise, high, low } };
        }
        if (push.type === 'buy') return { ...held, buy: push.data };
        if (push.type === 'sell') return { ...held, sell: push.data };
        return held;
      });
    });
  }, [client, tradcoin, maincoin]);
  return useQuery({
    queryKey: infoKey(pair),
    queryFn: () => api.get<ContractInfoReply>('/contract/contract', { tradcoin, maincoin }, { quiet: true }),
  });
}

export function useLevers(pair: FuturesPair) {
  return useQuery({
    queryKey: ['futures', 'levers', pair.tradcoin, pair.maincoin],
    queryFn: () => api.get<{ lever: number }[]>('/contract/lever', { ...pair }, { quiet: true }),
  });
}

export interface OrderLists {
  usable: string;
  entrusts: Entrust[];
  positions: Position[];
}

export function ordersKey(pair: FuturesPair) {
  return ['futures', 'orders', pair.tradcoin, pair.maincoin];
}

/**
 * The usable balance, open entrusts and positions of the pair, fetched
 * together and re-fetched every 3 s while any entrust or position exists
 * (spec §4). A new pair is a new query: the old one's polling stops with it.
 */
export function useOrderLists(pair: FuturesPair, enabled: boolean) {
  return useQuery({
    queryKey: ordersKey(pair),
    enabled,
    queryFn: async (): Promise<OrderLists> => {
      const [account, positions] = await Promise.all([
        api.get<ContractAccount>('/contract/contractAccount', { ...pair }, { quiet: true }),
        api.get<Position[]>('/contract/positionByCoin', { ...pair }, { quiet: true }),
      ]);
      return { usable: account.balance.usable, entrusts: account.entrust_order, positions };
    },
    refetchInterval: (query) => pollDelay(query.state.data),
  });
}

/** Spec §3 "Futures order payload". */
export interface FuturesOrder extends FuturesPair {
  side: Side;
  style: OrderStyle;
  price: string;
  profitPrice: string;
  lossPrice: string;
  number: string;
  lever: number;
  tdMode: TdMode;
}

export function placeOrder(order: FuturesOrder): Promise<Entrust> {
  const { side, style, price, ...body } = order;
  const path = `/contract/${side}${style === 'limit' ? 'Limit' : 'Market'}`;
  return api.post<Entrust>(path, style === 'limit' ? { ...body, style, price } : { ...body, style }, {
    idempotent: true,
  });
}

export const cancelEntrust = (id: number) => api.post<unknown>('/contract/closeEntrust', { id });

export const closePosition = (autoid: number, number: string) =>
  api.post<unknown>('/contract/closePosition', { autoid, number }, { idempotent: true });

export const closeBySide = (type: 'all' | 'buy' | 'sell', pair: FuturesPair) =>
  api.post<unknown>(
    '/contract/closeAllPosition',
    { coin: pair.tradcoin, maincoin: pair.maincoin, type },
    { idempotent: true },
  );

export function useTriggers(autoid: number | null) {
  return useQuery({
    queryKey: ['futures', 'triggers', autoid],
    enabled: autoid !== null,
    queryFn: () => api.get<Trigger[]>('/contract/profitLossOrder', { autoid }, { quiet: true }),
  });
}

export interface TpSl {
  profitPrice: string;
  lossPrice: string;
  number: string;
}

export const addTrigger = (autoid: number, prices: TpSl) =>
  api.post<Trigger>('/contract/profitLoss', { autoid, ...prices }, { idempotent: true });

export const editTrigger = (id: number, prices: TpSl) =>
  api.post<Trigger>('/contract/editProfitLoss', { id, ...prices });

export const cancelTrigger = (id: number) => api.post<unknown>('/contract/closeProfitLoss', { id });

/** An open position, fetched again (the TP/SL screen's header). */
export function usePosition(autoid: number | null) {
  return useQuery({
    queryKey: ['futures', 'position', autoid],
    enabled: autoid !== null,
    queryFn: async () => {
      const positions = await api.get<Position[]>('/contract/position', {}, { quiet: true });
      return positions.find((position) => position.autoid === autoid) ?? null;
    },
  });
}

export type RecordKind = 'entrusts' | 'positions';

export function fetchRecordPage(kind: RecordKind, page: number, limit: number) {
  return kind === 'entrusts'
    ? api.get<Page<Entrust>>('/contract/tradOrder', { page, limit }, { quiet: true })
    : api.get<Page<Position>>('/contract/tradHistory', { page, limit }, { quiet: true });
}
