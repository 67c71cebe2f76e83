import { Dec } from '@halyard/money';
import { LOCALES, type MarketCoins, type SpotPairSettings } from '@halyard/protocol';
import type { Insertable } from 'kysely';
import type { PairRow, SpotPairsTable } from './store.ts';

/** The back office's view of a pair's row (issue 18): what an operator reads and edits. */
export function spotSettingsOf(pair: PairRow): SpotPairSettings {
  return {
    priceAccuracy: pair.price_accuracy,
    amountAccuracy: pair.amount_accuracy,
    minNumber: Dec.canonical(pair.minnumber),
    maxNumber: Dec.canonical(pair.maxnumber),
    makerFee: Dec.canonical(pair.maker_fee),
    takerFee: Dec.canonical(pair.taker_fee),
    enabled: pair.state === 1,
    sort: pair.sort,
  };
}

/** The pair's row with new settings (already checked by `checkSpotPairSettings`). */
export function spotRowWith(pair: PairRow, settings: SpotPairSettings): PairRow {
  return { ...pair, ...settingColumns(settings) };
}

/** The row of a newly listed pair; its introduction starts empty in every language (the content screens fill it). */
export function newSpotPairRow(coins: MarketCoins, settings: SpotPairSettings): Insertable<SpotPairsTable> {
  return {
    tradcoin: coins.tradcoin,
    maincoin: coins.maincoin,
    ...settingColumns(settings),
    plate: 0,
    unit: '1',
    introduction: JSON.stringify(Object.fromEntries(LOCALES.map((locale) => [locale, '']))),
  };
}

function settingColumns(settings: SpotPairSettings) {
  return {
    price_accuracy: settings.priceAccuracy,
    amount_accuracy: settings.amountAccuracy,
    minnumber: Dec.canonical(settings.minNumber),
    maxnumber: Dec.canonical(settings.maxNumber),
    maker_fee: Dec.canonical(settings.makerFee),
    taker_fee: Dec.canonical(settings.takerFee),
    state: settings.enabled ? 1 : 0,
    sort: settings.sort,
  };
}
