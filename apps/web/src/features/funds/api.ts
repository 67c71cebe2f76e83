import type { Locale } from '@halyard/protocol';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/http.ts';

export type WalletName = 'spot' | 'futures' | 'fiat';

/** Spec §3 Spot asset (`/account/myAccount`). */
export interface SpotAsset {
  coin: string;
  blockname: string;
  usable: string;
  disable: string;
  usdt: string;
}

/** Spec §3 Futures asset (`/account/contractAssets`). */
export interface FuturesAsset {
  coin: string;
  usable: string;
  orders: string;
  profit: string;
  entrust: string;
}

/** Spec §3 Totals (`/account/myAccountCount`). */
export interface AssetTotals {
  usdt: string;
  assets: Record<string, string>;
  assets_amount: string;
  contract_assets: Record<string, string>;
  contract_assets_amount: string;
  c2c_assets: Record<string, string>;
  c2c_assets_amount: string;
}

export interface Rate {
  symbol: string;
  price: string;
  coin: string;
}

export interface BalanceRecord {
  id: string;
  coin: string;
  wallet: WalletName;
  type: string;
  typeName: string;
  amount: string;
  time: number;
}

interface RecordPage {
  items: BalanceRecord[];
  next: number | null;
}

/** The local currency each language reads its estimates in. */
export const LOCAL_CURRENCY: Record<Locale, string> = {
  cn: 'CNY',
  tw: 'TWD',
  en: 'USD',
  jp: 'JPY',
  ko: 'KRW',
  tr: 'TRY',
  vi: 'VND',
  id: 'IDR',
  ru: 'RUB',
};

export const RECORD_PAGE_SIZE = 20;

export function useSpotAssets() {
  return useQuery({ queryKey: ['funds', 'spot'], queryFn: () => api.get<SpotAsset[]>('/account/myAccount') });
}

export function useFuturesAssets() {
  return useQuery({
    queryKey: ['funds', 'futures'],
    queryFn: () => api.get<FuturesAsset[]>('/account/contractAssets'),
  });
}

export function useTotals() {
  return useQuery({
    queryKey: ['funds', 'totals'],
    queryFn: () => api.get<AssetTotals>('/account/myAccountCount'),
  });
}

/** What one USDT is worth in the user's local currency. */
export function useLocalRate(locale: Locale) {
  const currency = LOCAL_CURRENCY[locale];
  return useQuery({
    queryKey: ['rate', currency],
    queryFn: () => api.get<Rate>('/account/getExchangeRateByCoin', { coin: currency }, { quiet: true }),
    staleTime: 60_000,
  });
}

/** A coin's usable balance in one wallet. */
export function useUsable(wallet: WalletName, coin: string) {
  const url = { spot: '/account/balance', futures: '/account/contractBalance', fiat: '/account/c2cBalance' }[
    wallet
  ];
  return useQuery({
    queryKey: ['funds', 'usable', wallet, coin],
    queryFn: () => api.get<{ usable: string }>(url, { coin }),
    enabled: coin !== '',
  });
}

/** One wallet's movements of a coin, newest first, paged by the `next` cursor. */
export function useBalanceRecords(coin: string, wallet: WalletName) {
  return useInfiniteQuery({
    queryKey: ['funds', 'records', coin, wallet],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) =>
      api.get<RecordPage>('/account/financeByTypeCoin', {
        coin,
        wallet,
        before: pageParam,
        limit: RECORD_PAGE_SIZE,
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function requestFaucet(): Promise<Array<{ asset: string; amount: string }>> {
  return api.post('/account/demoFaucet');
}
