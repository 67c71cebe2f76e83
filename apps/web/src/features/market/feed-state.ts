import type { DepthLevel, ServerPush, TradeRow } from '@halyard/protocol';

/** What market details shows beside the chart: 24 h figures, the book and the latest trades. */
export interface MarketFeed {
  ticker: { price: string; rise: string; high: string; low: string; volume: string } | null;
  buy: DepthLevel[];
  sell: DepthLevel[];
  top: TradeRow[];
}

export const EMPTY_FEED: MarketFeed = { ticker: null, buy: [], sell: [], top: [] };

const INFO_TYPES = new Set(['info', 'coninfo', 'cycleinfo']);
const TOP_TYPES = new Set(['top', 'contop']);

/** One push of the market applied to the feed; every kind names its ticker and trades differently. */
export function applyMarketPush(feed: MarketFeed, push: ServerPush): MarketFeed {
  if (INFO_TYPES.has(push.type) && 'key' in push) {
    const data = push.data as { price: string; rise: string; high: string; low: string; volume: string };
    return {
      ...feed,
      ticker: { price: data.price, rise: data.rise, high: data.high, low: data.low, volume: data.volume },
    };
  }
  if (push.type === 'buy') return { ...feed, buy: push.data };
  if (push.type === 'sell') return { ...feed, sell: push.data };
  if (TOP_TYPES.has(push.type)) return { ...feed, top: push.data as TradeRow[] };
  return feed;
}
