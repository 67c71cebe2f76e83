import { LOCAL_KEYS, local } from '../../shared/storage.ts';

/** Recently viewed pairs kept for the coin search (newest first). */
export const RECENT_MAX = 10;

export interface PairRef {
  tradcoin: string;
  maincoin: string;
}

function same(a: PairRef, b: PairRef): boolean {
  return a.tradcoin === b.tradcoin && a.maincoin === b.maincoin;
}

export function readRecent(): PairRef[] {
  return local.getJson<PairRef[]>(LOCAL_KEYS.recentPairs, []);
}

export function rememberViewed(pair: PairRef): PairRef[] {
  const next = [pair, ...readRecent().filter((item) => !same(item, pair))].slice(0, RECENT_MAX);
  local.setJson(LOCAL_KEYS.recentPairs, next);
  return next;
}

export function clearRecent(): void {
  local.set(LOCAL_KEYS.recentPairs, null);
}

/** Spec §3: favourite pairs are local state ("optionalData"). */
export function readFavourites(): PairRef[] {
  return local.getJson<PairRef[]>(LOCAL_KEYS.favourites, []);
}

export function isFavourite(pair: PairRef): boolean {
  return readFavourites().some((item) => same(item, pair));
}

export function toggleFavourite(pair: PairRef): PairRef[] {
  const current = readFavourites();
  const next = current.some((item) => same(item, pair))
    ? current.filter((item) => !same(item, pair))
    : [...current, pair];
  local.setJson(LOCAL_KEYS.favourites, next);
  return next;
}
