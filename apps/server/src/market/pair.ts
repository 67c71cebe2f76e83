import type { MarketRef } from '@halyard/protocol';

/** How the market tables name a pair: trade coin, slash, main coin ("BTC/USDT"). */
export function pairName(market: Pick<MarketRef, 'tradcoin' | 'maincoin'>): string {
  return `${market.tradcoin}/${market.maincoin}`;
}

/** The coins of a stored pair name. */
export function splitPair(pair: string): { tradcoin: string; maincoin: string } {
  const [tradcoin = '', maincoin = ''] = pair.split('/');
  return { tradcoin, maincoin };
}

const SEPARATED = /^([A-Z0-9]{1,20})[/_-]([A-Z0-9]{1,20})$/;
/** Quote coins recognised at the end of an unseparated name ("BTCUSDT"). */
const QUOTES = ['USDT'];

/**
 * The `pairname` query parameter, trade coin first, in the forms clients use:
 * "BTC/USDT", "BTC_USDT", "BTC-USDT" or "BTCUSDT", any case. Null otherwise.
 */
export function parsePairName(text: string): { tradcoin: string; maincoin: string } | null {
  const upper = text.trim().toUpperCase();
  const separated = SEPARATED.exec(upper);
  if (separated) return { tradcoin: separated[1] as string, maincoin: separated[2] as string };
  const quote = QUOTES.find((candidate) => upper.endsWith(candidate) && upper.length > candidate.length);
  if (!quote || !/^[A-Z0-9]{1,40}$/.test(upper)) return null;
  return { tradcoin: upper.slice(0, -quote.length), maincoin: quote };
}
