import type { DepthLevel, MarketKind, ServerPush, TradeRow } from '@halyard/protocol';
import { marketKey } from '@halyard/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';
import { applyMarketPush, EMPTY_FEED, type MarketFeed } from './feed-state.ts';
import type { ChartPair } from './KlineChart.tsx';

function isPush(message: unknown): message is ServerPush {
  return typeof message === 'object' && message !== null && 'type' in message && 'data' in message;
}

interface SpotSeed {
  info: { price: string; rise: string; high: string; low: string; volume: string };
  buy: DepthLevel[];
  sell: DepthLevel[];
  top: TradeRow[];
}

/** The spot pair's snapshot starts the feed; the other kinds start from their first pushes. */
function useSeed(kind: MarketKind, pair: ChartPair) {
  return useQuery({
    queryKey: ['market', 'seed', kind, pair.tradcoin, pair.maincoin],
    queryFn: async (): Promise<MarketFeed> => {
      if (kind !== 'trad') return EMPTY_FEED;
      const seed = await api.get<SpotSeed>('/trad/trad', { ...pair }, { quiet: true });
      return { ticker: seed.info, buy: seed.buy, sell: seed.sell, top: seed.top };
    },
  });
}

/** The market's feed, live. The chart owns the subscription (its key carries the period). */
export function useMarketFeed(kind: MarketKind, pair: ChartPair): MarketFeed {
  const seed = useSeed(kind, pair);
  const [feed, setFeed] = useState<MarketFeed>(EMPTY_FEED);
  const { tradcoin, maincoin } = pair;
  useEffect(() => {
    setFeed(EMPTY_FEED);
    const key = marketKey({ kind, tradcoin, maincoin });
    return live().onMessage((message) => {
      if (isPush(message) && 'key' in message && String(message.key) === key)
        setFeed((held) => applyMarketPush(held, message));
    });
  }, [kind, tradcoin, maincoin]);
  // After the reset above, so a cached seed is not wiped on the way in.
  useEffect(() => {
    if (seed.data) setFeed((held) => (held.ticker === null ? seed.data : held));
  }, [seed.data]);
  return feed;
}
