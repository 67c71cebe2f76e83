import { SESSION_KEYS, session } from '../../shared/storage.ts';
import { readTradePair, storeTradePair } from '../pairs/trade-pair.ts';
import type { FuturesPair, OrderStyle, Position, Side, TdMode } from './types.ts';

/** Spec §3: the futures screen keeps its margin mode, pair, tab and direction (and order style, leverage) for the session. */
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
  mode: () => oneOf<TdMode>(session.get(SESSION_KEYS.futuresMode), ['cross', 'lsolate'], 'cross'),
  setMode: (mode: TdMode) => session.set(SESSION_KEYS.futuresMode, mode),
  style: () => oneOf<OrderStyle>(session.get(SESSION_KEYS.futuresStyle), ['limit', 'market'], 'market'),
  setStyle: (style: OrderStyle) => session.set(SESSION_KEYS.futuresStyle, style),
  /** 0 when none was chosen: the page then takes the first of the contract's list. */
  lever: () => Number.parseInt(session.get(SESSION_KEYS.futuresLever) ?? '0', 10) || 0,
  setLever: (lever: number) => session.set(SESSION_KEYS.futuresLever, String(lever)),
  pair: (fallback: FuturesPair): FuturesPair => readTradePair('futures', fallback),
  setPair: (pair: FuturesPair) => storeTradePair('futures', pair),
  /** The pair /marketDetails opens on (spec §3 session key marketDetails). */
  setChartPair: (pair: FuturesPair) => session.set(SESSION_KEYS.marketDetails, JSON.stringify(pair)),
  tab: () => oneOf<FuturesTab>(session.get(SESSION_KEYS.futuresTab), ['open', 'position'], 'open'),
  setTab: (tab: FuturesTab) => session.set(SESSION_KEYS.futuresTab, tab),
  direction: () => oneOf<Side>(session.get(SESSION_KEYS.futuresDirection), ['buy', 'sell'], 'buy'),
  setDirection: (side: Side) => session.set(SESSION_KEYS.futuresDirection, side),
  position: () => readJson<Position>(session.get(SESSION_KEYS.futuresPosition)),
  setPosition: (position: Position | null) =>
    session.set(SESSION_KEYS.futuresPosition, position === null ? null : JSON.stringify(position)),
};
