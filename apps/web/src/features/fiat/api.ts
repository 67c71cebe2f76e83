import type {
  FiatAdInput,
  FiatAppealKind,
  FiatChatMessage,
  FiatCoin,
  FiatMerchantView,
  FiatOffer,
  FiatOrder,
  FiatPayee,
  FiatPayType,
  FiatQuote,
  FiatSide,
  FiatStanding,
} from '@halyard/protocol';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../shared/auth-store.ts';
import { api } from '../../shared/http.ts';

/** While an order is open its page polls it: the merchant's step and the expiry come from the server. */
const OPEN_ORDER_POLL_MS = 2_000;

export const OPEN_STATES: readonly FiatOrder['state'][] = ['to_pay', 'paid', 'appeal'];

export interface PlaceFields {
  coin: string;
  fiat: string;
  amount: string;
  payType: FiatPayType;
  /** The quoted ad the user read the terms of: the order goes to it or nowhere. */
  adId?: number;
}

/** The /fiat routes of spec §7 and the order actions of issue 16. */
export const fiatApi = {
  coins: () => api.get<FiatCoin[]>('/fiat/fiatCoin'),
  offers: (side: FiatSide) => api.get<FiatOffer[]>('/fiat/payCoinList', { side }),
  orders: () => api.get<FiatOrder[]>('/fiat/fiatOrderList', { page: 1, limit: 50 }),
  order: (id: number) => api.get<FiatOrder>('/fiat/fiatOrderById', { id }),
  standing: () => api.get<FiatStanding>('/fiat/myBans'),
  /** The ad an order would go to now (its window and terms, read before ordering). */
  quote: (side: FiatSide, fields: PlaceFields) =>
    api.get<FiatQuote>('/fiat/quote', { side, ...fields }, { quiet: true }),
  buy: (fields: PlaceFields) => api.post<FiatOrder>('/fiat/addFiatPayOrder', { ...fields }),
  sell: (fields: PlaceFields & Partial<FiatPayee>) =>
    api.post<FiatOrder>('/fiat/sellFiatOrder', { ...fields }),
  markPaid: (id: number, img: string) => api.post<FiatOrder>('/fiat/addFiatPayOrderImg', { id, img }),
  release: (id: number) => api.post<FiatOrder>('/fiat/releaseFiatOrder', { id }),
  cancel: (id: number) => api.post<FiatOrder>('/fiat/cancelFiatOrder', { id }),
  appeal: (id: number, kind: FiatAppealKind, reason: string) =>
    api.post<FiatOrder>('/fiat/appealFiatOrder', { id, kind, reason }),
  merchant: () => api.get<FiatMerchantView>('/fiat/myMerchant'),
  applyMerchant: () => api.post<FiatMerchantView>('/fiat/applyMerchant'),
  publishAd: ({ methods, ...ad }: FiatAdInput) =>
    api.post<FiatMerchantView>('/fiat/publishAd', {
      ...ad,
      methods: methods.map(({ payType, payee }) => ({ payType, ...payee })),
    }),
  /** Online or away; with `available`, the ad's new amount (a live sell ad's hold follows it). */
  adOnline: (id: number, online: boolean, available?: string) =>
    api.post<FiatMerchantView>('/fiat/adOnline', { id, online, available }),
  chat: (id: number) => api.get<FiatChatMessage[]>('/fiat/chatList', { id }, { quiet: true }),
  say: (id: number, text: string, img?: string) =>
    api.post<FiatChatMessage[]>('/fiat/chatSend', { id, text, ...(img ? { img } : {}) }),
};

const OFFERS_REFRESH_MS = 10_000;

export function useFiatOffers(side: FiatSide) {
  // Floating prices follow the index: the offer is read again while the screen is open.
  return useQuery({
    queryKey: ['fiat', 'offers', side],
    queryFn: () => fiatApi.offers(side),
    refetchInterval: OFFERS_REFRESH_MS,
  });
}

export function useFiatOrders() {
  const token = useAuth((state) => state.token);
  return useQuery({ queryKey: ['fiat', 'orders', token], enabled: token !== null, queryFn: fiatApi.orders });
}

export function useFiatStanding() {
  const token = useAuth((state) => state.token);
  return useQuery({
    queryKey: ['fiat', 'standing', token],
    enabled: token !== null,
    queryFn: fiatApi.standing,
  });
}

export function useFiatOrder(id: number | null) {
  return useQuery({
    queryKey: ['fiat', 'order', id],
    enabled: id !== null,
    queryFn: () => fiatApi.order(id ?? 0),
    refetchInterval: (query) =>
      query.state.data && OPEN_STATES.includes(query.state.data.state) ? OPEN_ORDER_POLL_MS : false,
  });
}

/** The order's chat, polled while the order is open. */
export function useFiatChat(id: number, open: boolean) {
  return useQuery({
    queryKey: ['fiat', 'chat', id],
    queryFn: () => fiatApi.chat(id),
    refetchInterval: open ? OPEN_ORDER_POLL_MS : false,
  });
}

/** Whole seconds from `now` to `until`, never below zero. */
export function secondsUntil(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** mm:ss of a countdown. */
export function clockText(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The ad an order with these fields would go to, while they are complete and the user is signed in. */
export function useFiatQuote(side: FiatSide, fields: PlaceFields | null) {
  const token = useAuth((state) => state.token);
  return useQuery({
    queryKey: ['fiat', 'quote', token, side, fields],
    enabled: token !== null && fields !== null,
    queryFn: () => fiatApi.quote(side, fields!),
    retry: false,
  });
}
