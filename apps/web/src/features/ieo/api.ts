import type {
  IeoAllocationProof,
  IeoOrder,
  IeoPayCoinBalance,
  IeoProject,
  IeoPublicCommit,
} from '@halyard/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/http.ts';

/** Countdowns and progress move on their own; the list is fetched again this often. */
const LIST_REFRESH_MS = 5_000;

export function useIeoList() {
  return useQuery({
    queryKey: ['ieo', 'list'],
    queryFn: () => api.get<IeoProject[]>('/ieo/getIeoList'),
    refetchInterval: LIST_REFRESH_MS,
  });
}

export function usePayCoins(coin: string, signedIn: boolean) {
  return useQuery({
    queryKey: ['ieo', 'payCoins', coin, signedIn],
    queryFn: () => api.get<IeoPayCoinBalance[]>('/ieo/findPayCoinByCoin', { coin }),
    enabled: coin !== '',
  });
}

export function useIeoOrders(enabled: boolean) {
  return useQuery({
    queryKey: ['ieo', 'orders'],
    queryFn: () => api.get<IeoOrder[]>('/ieo/getIeoOrder', { page: 1, limit: 100 }),
    enabled,
    refetchInterval: LIST_REFRESH_MS,
  });
}

export function useCommits(projectId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['ieo', 'commits', projectId],
    queryFn: () => api.get<IeoPublicCommit[]>('/ieo/commits', { id: projectId }),
    enabled,
  });
}

export function addIeoOrder(body: { id: number; paycoin: string; number: string; clientOid: string }) {
  return api.post<IeoOrder>('/ieo/addIeoOrder', body);
}

export function fetchProof(projectId: number) {
  return api.get<IeoAllocationProof>('/ieo/allocationProof', { id: projectId });
}
