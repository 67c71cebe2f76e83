import { Dec } from '@halyard/money';
import { PRICE_INTEGER_DIGITS } from './constants.ts';
import { type RuleError, ruleError } from './error.ts';
import {
  checkPositiveInput,
  fractionDigitCount,
  integerDigitCount,
  isBlank,
  isIntegerText,
  parseNumber,
  parseOptionalPositive,
} from './number.ts';
import { checkSideBounds, type OrderSide, type OrderStyle, sliderPercent } from './order.ts';

export type PositionSide = 'long' | 'short';

/** A futures order as typed: `price`, `quantity` (whole lots), `takeProfit`, `stopLoss` from the user. */
export interface FuturesOrderInput {
  side: OrderSide;
  style: OrderStyle;
  price?: string;
  latestPrice: string;
  quantity: string;
  minNumber: string;
  maxNumber: string;
  takeProfit?: string;
  stopLoss?: string;
  /** The contract's price accuracy: the decimals its prices (limit, TP, SL) may carry. */
  priceAccuracy: number;
}

/** Whole lots: required, digits only, above zero. */
function checkLots(quantity: string | undefined): RuleError | null {
  if (isBlank(quantity)) return ruleError('rules.quantityRequired');
  if (!isIntegerText(quantity)) return ruleError('rules.quantityNotInteger');
  return Dec.parse(quantity).isPositive() ? null : ruleError('rules.quantityNotPositive');
}

/**
 * Spec §5 "Futures order", first failure wins: limit price required and a
 * correct number within the contract's price accuracy and 13 integer digits; quantity required and whole; minimum and maximum per side;
 * then take-profit and stop-loss against the reference price (the entered price
 * for limit, the latest price for market): a buy wants TP above and SL below,
 * a sell the reverse.
 */
export function checkFuturesOrder(order: FuturesOrderInput): RuleError | null {
  if (order.style === 'limit') {
    const priceError = checkPositiveInput(order.price, 'price', {
      integerDigits: PRICE_INTEGER_DIGITS,
      decimals: order.priceAccuracy,
    });
    if (priceError !== null) return priceError;
  }
  const lotsError = checkLots(order.quantity);
  if (lotsError !== null) return lotsError;
  const boundsError = checkSideBounds(
    order.side,
    Dec.parse(order.quantity),
    order.minNumber,
    order.maxNumber,
  );
  if (boundsError !== null) return boundsError;
  const reference = Dec.parse(
    order.style === 'limit' && order.price !== undefined ? order.price : order.latestPrice,
  );
  return checkTargets(order.side === 'buy' ? 'above' : 'below', reference, order, order.priceAccuracy, true);
}

/**
 * Take-profit and stop-loss for a position: at least one; a long's TP not below
 * the open price and SL not above it, a short's the reverse. Equal is allowed
 * here (an order's targets must be strictly on the right side of its price).
 */
export function checkPositionTpSl(position: {
  side: PositionSide;
  openPrice: string;
  takeProfit?: string;
  stopLoss?: string;
  /** The contract's price accuracy. */
  priceAccuracy: number;
}): RuleError | null {
  if (isBlank(position.takeProfit) && isBlank(position.stopLoss)) return ruleError('rules.tpSlRequired');
  const direction = position.side === 'long' ? 'above' : 'below';
  return checkTargets(direction, Dec.parse(position.openPrice), position, position.priceAccuracy, false);
}

/**
 * Where the take-profit must lie relative to the reference; the stop-loss lies
 * on the other side. `strict` forbids equality. Both are prices of the
 * contract: at most `accuracy` decimals and 13 integer digits.
 */
function checkTargets(
  takeProfitSide: 'above' | 'below',
  reference: Dec,
  targets: { takeProfit?: string; stopLoss?: string },
  accuracy: number,
  strict: boolean,
): RuleError | null {
  const stopLossSide = takeProfitSide === 'above' ? 'below' : 'above';
  return (
    checkTarget('takeProfit', targets.takeProfit, takeProfitSide, reference, accuracy, strict) ??
    checkTarget('stopLoss', targets.stopLoss, stopLossSide, reference, accuracy, strict)
  );
}

function checkTarget(
  name: 'takeProfit' | 'stopLoss',
  text: string | undefined,
  side: 'above' | 'below',
  reference: Dec,
  accuracy: number,
  strict: boolean,
): RuleError | null {
  const target = parseOptionalPositive(text);
  if (target === null || text === undefined) return null;
  if (target === 'invalid') return ruleError(`rules.${name}Invalid`);
  if (integerDigitCount(text) > PRICE_INTEGER_DIGITS) {
    return ruleError('rules.tooManyIntegerDigits', { digits: PRICE_INTEGER_DIGITS });
  }
  if (fractionDigitCount(text) > accuracy) return ruleError('rules.tooManyDecimals', { digits: accuracy });
  const order = target.cmp(reference);
  const wrongSide = side === 'above' ? order < 0 : order > 0;
  if (!wrongSide && !(strict && order === 0)) return null;
  // "must be above {price}" for orders, "cannot be below {price}" for positions.
  const key = strict
    ? `rules.${name}MustBe${side === 'above' ? 'Above' : 'Below'}`
    : `rules.${name}CannotBe${side === 'above' ? 'Below' : 'Above'}`;
  return ruleError(key, { price: reference.toString() });
}

export interface FuturesMarginInput {
  /** The entered price (limit) or the latest price (market), as typed. */
  price: string;
  /** Whole lots, as typed. */
  quantity: string;
  /** Contract size: coins per lot. */
  unit: string;
  /** Leverage, a whole multiple. */
  lever: number;
  /** Fee rate on the notional ("0.0005" = 0.05 %). */
  gas: string;
  usable: string;
  minNumber: string;
}

export interface FuturesMarginEstimate {
  notional: string;
  margin: string;
  fee: string;
  /** Margin plus fee: what the confirm dialog shows and what the order holds. */
  total: string;
}

/**
 * notional = price × quantity × unit, margin = notional / lever, fee =
 * notional × gas; exact decimals (division floored at 18 digits), formatted by
 * the caller. Null (blank margin and fee) unless the price is positive, the
 * quantity is whole and at least minnumber, and the usable balance covers
 * margin plus fee.
 */
export function futuresMarginEstimate(input: FuturesMarginInput): FuturesMarginEstimate | null {
  const price = parseNumber(input.price);
  if (price === null || !price.isPositive() || !isIntegerText(input.quantity)) return null;
  const quantity = Dec.parse(input.quantity);
  if (quantity.lt(Dec.parse(input.minNumber))) return null;
  const notional = price.mul(quantity).mul(Dec.parse(input.unit));
  const margin = notional.div(Dec.fromInt(input.lever));
  const fee = notional.mul(Dec.parse(input.gas));
  const total = margin.add(fee);
  if (total.gt(Dec.parse(input.usable))) return null;
  return {
    notional: notional.toString(),
    margin: margin.toString(),
    fee: fee.toString(),
    total: total.toString(),
  };
}

/**
 * Lots a slider position buys: floor(usable × pct / (price × unit × (1/lever + gas))).
 * Computed as usable × pct × lever / (100 × price × unit × (1 + gas × lever)) so
 * the only rounding is the final floor while price, unit and gas together carry
 * at most 18 decimals (1/lever as a decimal would be rounded down and could
 * grant one lot too many). Empty when usable ≤ 0, the price is not a positive
 * number, or the result is zero lots.
 */
export function futuresSliderQuantity(input: {
  usable: string;
  percent: number;
  price: string;
  unit: string;
  lever: number;
  gas: string;
}): string {
  const percent = sliderPercent(input.percent);
  const usable = Dec.parse(input.usable);
  const price = parseNumber(input.price);
  if (!usable.isPositive() || price === null || !price.isPositive()) return '';
  const lever = Dec.fromInt(input.lever);
  const spend = usable.mul(percent).mul(lever);
  const costPerLotTimes100 = Dec.fromInt(100)
    .mul(price)
    .mul(Dec.parse(input.unit))
    .mul(Dec.ONE.add(Dec.parse(input.gas).mul(lever)));
  const lots = spend.div(costPerLotTimes100).floorToInteger();
  return lots > 0n ? lots.toString() : '';
}

/** Partial close: a whole, positive number of lots, at most what the position has available. */
export function checkPartialClose(input: { quantity: string; available: string }): RuleError | null {
  const lotsError = checkLots(input.quantity);
  if (lotsError !== null) return lotsError;
  const available = Dec.parse(input.available);
  if (Dec.parse(input.quantity).gt(available)) {
    return ruleError('rules.closeQuantityTooLarge', { max: available.toString() });
  }
  return null;
}
