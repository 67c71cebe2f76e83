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
      minNumber: Dec.parse(lever.minnumber).toString(),
      maxNumber: Dec.parse(lever.maxnumber).toString(),
      profitRate: Dec.parse(lever.profit_gas).toString(),
      lossRate: Dec.parse(lever.loss_gas).toString(),
      fee: Dec.parse(lever.gas).toString(),
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
      minnumber: Dec.parse(option.minNumber).toString(),
      maxnumber: Dec.parse(option.maxNumber).toString(),
      profit_gas: Dec.parse(option.profitRate).toString(),
      loss_gas: Dec.parse(option.lossRate).toString(),
      gas: Dec.parse(option.fee).toString(),
    }));
}
