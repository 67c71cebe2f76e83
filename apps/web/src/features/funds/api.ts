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
