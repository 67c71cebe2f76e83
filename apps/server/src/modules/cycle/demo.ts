import type { NewLever, NewPair } from './store.ts';

/**
 * The demo cycle pairs (AMENDMENTS A5: play money). Each offers the same four
 * durations; the longer the contract, the higher the payout, because a longer
 * window is harder to call. A loss costs the whole stake; the fee is 2 % of a
 * win's payout. Stakes are in USDT, the index's quote coin.
 */
const DEMO_LEVERS: readonly NewLever[] = [
  { seconds: 30, minnumber: '10', maxnumber: '5000', profit_gas: '0.8', loss_gas: '1', gas: '0.02' },
  { seconds: 60, minnumber: '20', maxnumber: '10000', profit_gas: '0.85', loss_gas: '1', gas: '0.02' },
  { seconds: 120, minnumber: '50', maxnumber: '20000', profit_gas: '0.9', loss_gas: '1', gas: '0.02' },
  { seconds: 300, minnumber: '100', maxnumber: '50000', profit_gas: '0.95', loss_gas: '1', gas: '0.02' },
];

const DEMO_COINS: readonly { tradcoin: string; price_accuracy: number }[] = [
  { tradcoin: 'BTC', price_accuracy: 2 },
  { tradcoin: 'ETH', price_accuracy: 2 },
  { tradcoin: 'SOL', price_accuracy: 3 },
];

export function demoCyclePairs(quote: string): { pair: NewPair; levers: readonly NewLever[] }[] {
  return DEMO_COINS.map((coin, sort) => ({
    pair: {
      tradcoin: coin.tradcoin,
      maincoin: quote,
      price_accuracy: coin.price_accuracy,
      paycoins: quote,
      sort,
    },
    levers: DEMO_LEVERS,
  }));
}
