import type { FuturesSymbolRow, ServerPush, SpotSymbolRow } from '@halyard/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';

function isPush(message: unknown): message is ServerPush {
  return typeof message === 'object' && message !== null && 'type' in message && 'data' in message;
}

/**
 * Spot pairs from GET `url` (quietly: the spot module may not be deployed),
 * kept fresh by the `push` broadcast of the live connection.
 */
function useLiveList<T>(queryKey: string, url: string, push: ServerPush['type']) {
  const client = useQueryClient();
  useEffect(
    () =>
      live().onMessage((message) => {
        if (isPush(message) && message.type === push) client.setQueryData([queryKey], message.data);
      }),
    [client, queryKey, push],
  );
  return useQuery({
    queryKey: [queryKey],
    queryFn: () => api.get<T[]>(url, {}, { quiet: true }),
    retry: false,
  });
}

export function useSpotOverview() {
  return useLiveList<SpotSymbolRow>('overview', '/trad/overview', 'overview');
}

export function useSpotSymbols() {
  return useLiveList<SpotSymbolRow>('symbols', '/trad/symbols', 'symbols');
}

export function useFuturesSymbols() {
  return useLiveList<FuturesSymbolRow>('consymbols', '/contract/symbols', 'consymbols');
}

export function pairName(row: { tradcoin: string; maincoin: string }): string {
  return `${row.tradcoin}/${row.maincoin}`;
}
