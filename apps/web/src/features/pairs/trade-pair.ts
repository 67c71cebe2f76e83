import { useNavigate } from 'react-router';
import { SESSION_KEYS, session } from '../../shared/storage.ts';
import { rememberViewed } from '../market/pair-lists.ts';

/** A pair as the trade screens key it: trade coin and main coin. */
export interface TradePair {
  tradcoin: string;
  maincoin: string;
}

/** The markets a pair opens in. */
export type TradeMarket = 'spot' | 'futures';

/** Each market's screen, and the session key its pair is kept under (spec §3: selectedCoin, the futures pair). */
const MARKETS = {
  spot: { screen: '/coinExchange', key: SESSION_KEYS.selectedCoin },
  futures: { screen: '/futures', key: SESSION_KEYS.futuresPair },
} as const satisfies Record<TradeMarket, { screen: string; key: string }>;

/** The pair the market's screen shows this session, or `fallback` when none (or garbage) is stored. */
export function readTradePair(market: TradeMarket, fallback: TradePair): TradePair {
  try {
    const stored: unknown = JSON.parse(session.get(MARKETS[market].key) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return fallback;
    const { tradcoin, maincoin } = stored as Partial<Record<keyof TradePair, unknown>>;
    return typeof tradcoin === 'string' && tradcoin && typeof maincoin === 'string' && maincoin
      ? { tradcoin, maincoin }
      : fallback;
  } catch {
    return fallback;
  }
}

/** Keeps the pair for the session: the screen opens on it, also after a reload. */
export function storeTradePair(market: TradeMarket, pair: TradePair): void {
  session.set(MARKETS[market].key, JSON.stringify({ tradcoin: pair.tradcoin, maincoin: pair.maincoin }));
}

/**
 * The one way a list (home's markets, the coin search) opens a pair: the
 * pair is stored for its market, remembered as recently viewed, and the
 * market's trade screen opens on it.
 */
export function useOpenPair(): (market: TradeMarket, pair: TradePair) => void {
  const navigate = useNavigate();
  return (market, pair) => {
    const picked = { tradcoin: pair.tradcoin, maincoin: pair.maincoin };
    storeTradePair(market, picked);
    rememberViewed(picked);
    navigate(MARKETS[market].screen);
  };
}
