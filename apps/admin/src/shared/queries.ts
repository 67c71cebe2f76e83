import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Query } from './api.ts';
import { api } from './http.ts';

/** A GET of the console, keyed by its URL and query, so an action can re-read exactly what it changed. */
export function useGet<T>(url: string, query: Query = {}, enabled = true) {
  return useQuery({
    queryKey: [url, query] as QueryKey,
    queryFn: () => api.get<T>(url, query),
    enabled,
  });
}

/** After an action: re-read every GET under these URL prefixes. */
export function useRefresh() {
  const client = useQueryClient();
  return (...prefixes: string[]) =>
    client.invalidateQueries({
      predicate: (query) => {
        const url = query.queryKey[0];
        return typeof url === 'string' && prefixes.some((prefix) => url.startsWith(prefix));
      },
    });
}
