import { SESSION_KEYS, session } from '../../shared/storage.ts';
import type { FuturesPair, OrderStyle, Position, Side } from './types.ts';

/** Spec §3: the futures screen keeps its order style, pair, tab and direction for the session. */
export type FuturesTab = 'open' | 'position';

function readJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function oneOf<T extends string>(text: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.find((value) => value === text) ?? fallback;
}

export const futuresSession = {
  style: () => oneOf<OrderStyle>(session.get(SESSION_KEYS.futuresMode), ['limit', 'market'], 'market'),
  setStyle: (style: OrderStyle) => session.set(SESSION_KEYS.futuresMode, style),
  pair: (fallback: FuturesPair): FuturesPair => {
    const stored = readJson<FuturesPair>(session.get(SESSION_KEYS.futuresPair));
    return stored && typeof stored.tradcoin === 'string' && typeof stored.maincoin === 'string'
      ? { tradcoin: stored.tradcoin, maincoin: stored.maincoin }
      : fallback;
  },
  setPair: (pair: FuturesPair) => session.set(SESSION_KEYS.futuresPair, JSON.stringify(pair)),
  tab: () => oneOf<FuturesTab>(session.get(SESSION_KEYS.futuresTab), ['open', 'position'], 'open'),
  setTab: (tab: FuturesTab) => session.set(SESSION_KEYS.futuresTab, tab),
  direction: () => oneOf<Side>(session.get(SESSION_KEYS.futuresDirection), ['buy', 'sell'], 'buy'),
  setDirection: (side: Side) => session.set(SESSION_KEYS.futuresDirection, side),
  position: () => readJson<Position>(session.get(SESSION_KEYS.futuresPosition)),
  setPosition: (position: Position | null) =>
    session.set(SESSION_KEYS.futuresPosition, position === null ? null : JSON.stringify(position)),
};
