import { Dec } from '@halyard/money';
import type { FuturesContractSettings, MarketCoins } from '@halyard/protocol';
import {
  checkFuturesContractSettings,
  checkMarketCoins,
  futuresInitialMarginRate,
  futuresLeverChoices,
  type RuleError,
} from '@halyard/rules';
import type { Insertable } from 'kysely';
import type { ContractRow } from '../../core/state/futures-rows.ts';
import { badRequest } from '../../http/errors.ts';
import type { FuturesContractsTable } from './store.ts';

/** A futures listing: the coins, the name shown and the lot size (coins per lot), fixed once listed. */
export interface FuturesListing extends MarketCoins {
  name: string;
  unit: string;
}

/** The back office's view of a contract's row (issue 18): what an operator reads and edits. */
export function futuresSettingsOf(contract: ContractRow): FuturesContractSettings {
  return {
    priceAccuracy: contract.price_accuracy,
    minNumber: Dec.canonical(contract.minnumber),
    maxNumber: Dec.canonical(contract.maxnumber),
    maxLever: contract.max_lever,
    fee: Dec.canonical(contract.gas),
    maintenanceMarginRate: Dec.canonical(contract.maintenance_margin_rate),
    enabled: contract.state === 1,
    sort: contract.sort,
  };
}

export function requireValidSettings(settings: FuturesContractSettings): void {
  throwIf(checkFuturesContractSettings(settings));
}

/** A listing's own fields: coins, a name, a positive lot size. */
export function requireValidListing(listing: FuturesListing, settings: FuturesContractSettings): void {
  const unit = Dec.tryParse(listing.unit);
  throwIf(
    checkMarketCoins(listing) ??
      (listing.name.trim() && listing.name.length <= 40
        ? null
        : { key: 'markets.valueInvalid', params: { field: 'name' } }) ??
      (unit?.isPositive() ? null : { key: 'markets.amountInvalid', params: { field: 'unit' } }) ??
      checkFuturesContractSettings(settings),
  );
}

/** The contract's row with new settings (already checked). */
export function futuresRowWith(contract: ContractRow, settings: FuturesContractSettings): ContractRow {
  return { ...contract, ...settingColumns(settings) };
}

export function newContractRow(
  listing: FuturesListing,
  settings: FuturesContractSettings,
): Insertable<FuturesContractsTable> {
  return {
    tradcoin: listing.tradcoin,
    maincoin: listing.maincoin,
    chinaname: listing.name.trim(),
    symbol: `${listing.tradcoin}/${listing.maincoin}`,
    unit: Dec.canonical(listing.unit),
    ...settingColumns(settings),
    plate: 0,
  };
}

function settingColumns(settings: FuturesContractSettings) {
  return {
    price_accuracy: settings.priceAccuracy,
    minnumber: Dec.canonical(settings.minNumber),
    maxnumber: Dec.canonical(settings.maxNumber),
    max_lever: settings.maxLever,
    levers: JSON.stringify(futuresLeverChoices(settings.maxLever)),
    gas: Dec.canonical(settings.fee),
    initial_margin_rate: futuresInitialMarginRate(settings.maxLever).toString(),
    maintenance_margin_rate: Dec.canonical(settings.maintenanceMarginRate),
    state: settings.enabled ? 1 : 0,
    sort: settings.sort,
  };
}

function throwIf(refused: RuleError | null): void {
  if (refused) throw badRequest(refused.key, refused.params);
}
