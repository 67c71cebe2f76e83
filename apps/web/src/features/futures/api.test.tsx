// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OrderLists, useOrderLists } from './api.ts';
import type { FuturesPair } from './types.ts';

interface Call {
  url: string;
  tradcoin: unknown;
}

const server = vi.hoisted(() => ({
  calls: [] as Call[],
  positions: [] as unknown[],
  entrusts: [] as unknown[],
}));

vi.mock('../../shared/http.ts', () => ({
  api: {
    get: async (url: string, query: Record<string, unknown> = {}) => {
      server.calls.push({ url, tradcoin: query.tradcoin });
      if (url === '/contract/contractAccount') {
        return { balance: { usable: '100', locked: '0' }, entrust_order: server.entrusts };
      }
      return server.positions;
    },
  },
}));
vi.mock('../../shared/live.ts', () => ({ live: () => ({ onMessage: () => () => undefined }) }));

const BTC: FuturesPair = { tradcoin: 'BTC', maincoin: 'USDT' };
const ETH: FuturesPair = { tradcoin: 'ETH', maincoin: 'USDT' };

function positionFetches(tradcoin: string): number {
  return server.calls.filter((call) => call.url === '/contract/positionByCoin' && call.tradcoin === tradcoin)
    .length;
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

beforeEach(() => {
  vi.useFakeTimers();
  server.calls.length = 0;
  server.positions = [];
  server.entrusts = [];
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('open orders and positions polling (spec §4)', () => {
  it('refreshes every 3 s while a position exists and stops once none is left', async () => {
    server.positions = [{ autoid: 1 }];
    const { result } = renderHook(() => useOrderLists(BTC, true), { wrapper });
    await vi.advanceTimersByTimeAsync(0);
    expect(result.current.data?.positions).toHaveLength(1);
    expect(positionFetches('BTC')).toBe(1);

    await vi.advanceTimersByTimeAsync(3000);
    expect(positionFetches('BTC')).toBe(2);

    server.positions = [];
    await vi.advanceTimersByTimeAsync(3000);
    expect(positionFetches('BTC')).toBe(3);
    await vi.advanceTimersByTimeAsync(10);
    expect((result.current.data as OrderLists).positions).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(positionFetches('BTC')).toBe(3);
  });

  it('keeps polling for an open entrust alone', async () => {
    server.entrusts = [{ autoid: 9 }];
    renderHook(() => useOrderLists(BTC, true), { wrapper });
    await vi.advanceTimersByTimeAsync(6000);
    expect(positionFetches('BTC')).toBe(3);
  });

  it('never starts while nothing is open', async () => {
    renderHook(() => useOrderLists(BTC, true), { wrapper });
    await vi.advanceTimersByTimeAsync(9000);
    expect(positionFetches('BTC')).toBe(1);
  });

  it("switching pair stops the old pair's polling and loads the new pair", async () => {
    server.positions = [{ autoid: 1 }];
    const { rerender } = renderHook(({ pair }) => useOrderLists(pair, true), {
      wrapper,
      initialProps: { pair: BTC },
    });
    await vi.advanceTimersByTimeAsync(3000);
    expect(positionFetches('BTC')).toBe(2);
    rerender({ pair: ETH });
    await vi.advanceTimersByTimeAsync(0);
    expect(positionFetches('ETH')).toBe(1);
    await vi.advanceTimersByTimeAsync(9000);
    expect(positionFetches('BTC')).toBe(2);
    expect(positionFetches('ETH')).toBe(4);
  });
});
