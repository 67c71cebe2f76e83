/**
 * The back office's input rules (issue 18), shared by the server and the
 * operator console: a manual balance adjustment, and the settings of a
 * market (spot pair, futures contract, cycle option). Message keys are in
 * the `approvals.` and `markets.` catalogues of @halyard/protocol.
 */

import { Dec } from '@halyard/money';
import {
  ADJUSTMENT_CATEGORIES,
  ADJUSTMENT_DIRECTIONS,
  type BalanceAdjustmentRequest,
  type CycleOptionSettings,
  type CyclePairSettings,
  type FuturesContractSettings,
  type MarketCoins,
  type SpotPairSettings,
} from '@halyard/protocol';
import { firstError, type RuleError, ruleError } from './error.ts';
import { fractionDigitCount, isBlank, isIntegerText, parseNumber } from './number.ts';

/** The ledger keeps 18 decimals: an adjustment finer than that cannot be written exactly. */
export const ADJUSTMENT_DECIMALS = 18;
export const ADJUSTMENT_REASON_MAX = 500;
const COIN_PATTERN = /^[A-Z0-9]{1,20}$/;

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

/**
 * A balance adjustment as typed, before any balance is read: the wallet is
 * one of `wallets` (the ledger's user wallets), the amount an exact positive
 * decimal, the category one of the fixed list, the reason given.
 */
export function checkBalanceAdjustment(
  input: BalanceAdjustmentRequest,
  wallets: readonly string[],
): RuleError | null {
  if (!Number.isSafeInteger(input.userId) || input.userId <= 0) return ruleError('approvals.userInvalid');
  if (!isOneOf(wallets, input.wallet)) return ruleError('approvals.walletInvalid');
  if (!COIN_PATTERN.test(input.coin)) return ruleError('approvals.coinInvalid');
  if (!isOneOf(ADJUSTMENT_DIRECTIONS, input.direction)) return ruleError('approvals.directionInvalid');
  const amount = parseNumber(input.amount);
  if (amount === null) return ruleError('approvals.amountInvalid');
  // Before the sign: a Dec keeps 18 decimals, so a finer amount would read as 0.
  if (fractionDigitCount(input.amount) > ADJUSTMENT_DECIMALS) {
    return ruleError('rules.tooManyDecimals', { digits: ADJUSTMENT_DECIMALS });
  }
  if (!amount.isPositive()) return ruleError('approvals.amountInvalid');
  if (!isOneOf(ADJUSTMENT_CATEGORIES, input.category)) return ruleError('approvals.categoryInvalid');
  if (isBlank(input.reason)) return ruleError('approvals.reasonRequired');
  if (input.reason.trim().length > ADJUSTMENT_REASON_MAX) {
    return ruleError('approvals.reasonTooLong', { max: ADJUSTMENT_REASON_MAX });
  }
  return null;
}

/** Price and amount accuracies: digits after the point. */
export const MARKET_PRECISION_MAX = 12;
/** A fee rate above 10 % is a typo, not a price list. */
export const MARKET_FEE_MAX = '0.1';
export const FUTURES_LEVER_MAX = 125;
/** The leverage choices of a contract: the usual ladder up to its maximum. */
export const FUTURES_LEVER_LADDER = [1, 2, 3, 5, 10, 20, 25, 50, 75, 100, 125] as const;
/** Cycle durations: from 10 seconds to a day. */
export const CYCLE_SECONDS = { min: 10, max: 86_400 } as const;
export const CYCLE_OPTIONS_MAX = 12;

function checkPrecision(value: number): RuleError | null {
  return Number.isInteger(value) && value >= 0 && value <= MARKET_PRECISION_MAX
    ? null
    : ruleError('markets.precisionInvalid', { max: MARKET_PRECISION_MAX });
}

function checkSort(value: number): RuleError | null {
  return Number.isSafeInteger(value) && value >= 0
    ? null
    : ruleError('markets.valueInvalid', { field: 'sort' });
}

/** A positive decimal of at most 18 decimals; `field` names it in the message. */
function positive(text: string, field: string): Dec | RuleError {
  const value = typeof text === 'string' ? parseNumber(text) : null;
  if (value === null || fractionDigitCount(text) > ADJUSTMENT_DECIMALS || !value.isPositive()) {
    return ruleError('markets.amountInvalid', { field });
  }
  return value;
}

const isRuleError = (value: Dec | RuleError): value is RuleError => !(value instanceof Dec);

/** Minimum and maximum: each positive, the maximum above the minimum. */
function checkMinMax(min: string, max: string): RuleError | null {
  const low = positive(min, 'minNumber');
  if (isRuleError(low)) return low;
  const high = positive(max, 'maxNumber');
  if (isRuleError(high)) return high;
  return high.gt(low) ? null : ruleError('markets.maxBelowMin');
}

/** A fee rate from 0 to MARKET_FEE_MAX. */
function checkFee(text: string, max = MARKET_FEE_MAX): RuleError | null {
  const value = typeof text === 'string' ? parseNumber(text) : null;
  const ok = value !== null && fractionDigitCount(text) <= ADJUSTMENT_DECIMALS && !value.isNegative();
  return ok && !value.gt(Dec.parse(max)) ? null : ruleError('markets.feeInvalid', { max });
}

/** A rate from 0 (excluded) to `max` (included): payouts and losses of a cycle option. */
function checkRate(text: string, field: string, max: string): RuleError | null {
  const value = positive(text, field);
  if (isRuleError(value)) return value;
  return value.gt(Dec.parse(max)) ? ruleError('markets.valueInvalid', { field }) : null;
}

/** The coins of a new market: two different listed-style symbols. */
export function checkMarketCoins(coins: MarketCoins): RuleError | null {
  if (!COIN_PATTERN.test(coins.tradcoin)) return ruleError('markets.valueInvalid', { field: 'tradcoin' });
  if (!COIN_PATTERN.test(coins.maincoin) || coins.maincoin === coins.tradcoin) {
    return ruleError('markets.valueInvalid', { field: 'maincoin' });
  }
  return null;
}

export function checkSpotPairSettings(settings: SpotPairSettings): RuleError | null {
  return firstError(
    () => checkPrecision(settings.priceAccuracy),
    () => checkPrecision(settings.amountAccuracy),
    // A price times an amount must still fit the 18 decimals money is kept in.
    () =>
      settings.priceAccuracy + settings.amountAccuracy <= ADJUSTMENT_DECIMALS
        ? null
        : ruleError('markets.precisionInvalid', { max: ADJUSTMENT_DECIMALS - settings.priceAccuracy }),
    () => checkMinMax(settings.minNumber, settings.maxNumber),
    () => checkFee(settings.makerFee),
    () => checkFee(settings.takerFee),
    () =>
      typeof settings.enabled === 'boolean' ? null : ruleError('markets.valueInvalid', { field: 'enabled' }),
    () => checkSort(settings.sort),
  );
}

/** Whole lots, the maintenance margin below the initial margin (1 / max leverage), fee within bounds. */
export function checkFuturesContractSettings(settings: FuturesContractSettings): RuleError | null {
  return firstError(
    () => checkPrecision(settings.priceAccuracy),
    () => checkMinMax(settings.minNumber, settings.maxNumber),
    () =>
      isIntegerText(settings.minNumber) && isIntegerText(settings.maxNumber)
        ? null
        : ruleError('markets.valueInvalid', { field: 'minNumber' }),
    () =>
      Number.isInteger(settings.maxLever) && settings.maxLever >= 1 && settings.maxLever <= FUTURES_LEVER_MAX
        ? null
        : ruleError('markets.leverInvalid', { max: FUTURES_LEVER_MAX }),
    () => checkFee(settings.fee),
    () => checkMaintenance(settings.maintenanceMarginRate, settings.maxLever),
    () =>
      typeof settings.enabled === 'boolean' ? null : ruleError('markets.valueInvalid', { field: 'enabled' }),
    () => checkSort(settings.sort),
  );
}

function checkMaintenance(text: string, maxLever: number): RuleError | null {
  const rate = positive(text, 'maintenanceMarginRate');
  if (isRuleError(rate) || !rate.lt(futuresInitialMarginRate(maxLever)))
    return ruleError('markets.marginInvalid');
  return null;
}

/** The initial margin rate of a contract: 1 / its maximum leverage. */
export function futuresInitialMarginRate(maxLever: number): Dec {
  return Dec.ONE.div(Dec.fromInt(maxLever));
}

/** The leverage choices offered up to `maxLever` (and `maxLever` itself when it is off the ladder). */
export function futuresLeverChoices(maxLever: number): number[] {
  const choices: number[] = FUTURES_LEVER_LADDER.filter((lever) => lever <= maxLever);
  if (!choices.includes(maxLever)) choices.push(maxLever);
  return choices;
}

export function checkCyclePairSettings(settings: CyclePairSettings): RuleError | null {
  return firstError(
    () => checkPrecision(settings.priceAccuracy),
    () =>
      Array.isArray(settings.payCoins) &&
      settings.payCoins.length > 0 &&
      settings.payCoins.every((coin) => COIN_PATTERN.test(coin)) &&
      new Set(settings.payCoins).size === settings.payCoins.length
        ? null
        : ruleError('markets.valueInvalid', { field: 'payCoins' }),
    () => checkCycleOptions(settings.options),
    () => checkSort(settings.sort),
  );
}

function checkCycleOptions(options: readonly CycleOptionSettings[]): RuleError | null {
  if (!Array.isArray(options) || options.length > CYCLE_OPTIONS_MAX) {
    return ruleError('markets.valueInvalid', { field: 'options' });
  }
  if (new Set(options.map((option) => option.seconds)).size !== options.length) {
    return ruleError('markets.valueInvalid', { field: 'seconds' });
  }
  for (const option of options) {
    const refused = firstError(
      () =>
        Number.isInteger(option.seconds) &&
        option.seconds >= CYCLE_SECONDS.min &&
        option.seconds <= CYCLE_SECONDS.max
          ? null
          : ruleError('markets.valueInvalid', { field: 'seconds' }),
      () => checkMinMax(option.minNumber, option.maxNumber),
      () => checkRate(option.profitRate, 'profitRate', '10'),
      () => checkRate(option.lossRate, 'lossRate', '1'),
      () => checkFee(option.fee, '1'),
    );
    if (refused) return refused;
  }
  return null;
}
