import { Dec } from '@halyard/money';
import type { CyclePairSettings, MarketCoins } from '@halyard/protocol';
import { checkCyclePairSettings, checkMarketCoins } from '@halyard/rules';
import { badRequest } from '../../http/errors.ts';
import type { LeverRow, NewLever, NewPair, PairRow } from './store.ts';

/** The back office's view of a cycle pair and its durations (issue 18). */
export function cycleSettingsOf(pair: PairRow, levers: readonly LeverRow[]): CyclePairSettings {
  return {
    priceAccuracy: pair.price_accuracy,
    payCoins: pair.paycoins.split(',').filter((coin) => coin !== ''),
    options: levers.map((lever) => ({
      seconds: lever.seconds,
      minNumber: Dec.canonical(lever.minnumber),
      maxNumber: Dec.canonical(lever.maxnumber),
      profitRate: Dec.canonical(lever.profit_gas),
      lossRate: Dec.canonical(lever.loss_gas),
      fee: Dec.canonical(lever.gas),
    })),
    sort: pair.sort,
  };
}

export function requireValidCycleSettings(settings: CyclePairSettings, coins?: MarketCoins): void {
  const refused = (coins ? checkMarketCoins(coins) : null) ?? checkCyclePairSettings(settings);
  if (refused) throw badRequest(refused.key, refused.params);
}

/** The pair's columns an operator sets (the coins stay). */
export function cyclePairColumns(settings: CyclePairSettings): Omit<NewPair, 'tradcoin' | 'maincoin'> {
  return {
    price_accuracy: settings.priceAccuracy,
    paycoins: settings.payCoins.join(','),
    sort: settings.sort,
  };
}

/** The durations' rows, shortest first. */
export function cycleLeverRows(settings: CyclePairSettings): NewLever[] {
  return [...settings.options]
    .sort((a, b) => a.seconds - b.seconds)
    .map((option) => ({
      seconds: option.seconds,
      minnumber: Dec.canonical(option.minNumber),
      maxnumber: Dec.canonical(option.maxNumber),
      profit_gas: Dec.canonical(option.profitRate),
      loss_gas: Dec.canonical(option.lossRate),
      gas: Dec.canonical(option.fee),
    }));
}
