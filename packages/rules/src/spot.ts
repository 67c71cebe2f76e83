import { Dec } from '@halyard/money';
import { checkEmailBound } from './account.ts';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput, parseNumber } from './number.ts';
import { checkSideBounds, type OrderSide, type OrderStyle, sliderPercent } from './order.ts';

/**
 * A spot order as typed. Money is text: `price` and `amount` come from the user,
 * the rest from the server (the pair's `minnumber`/`maxnumber`, the latest price
 * and the usable balances of the main coin and the trade coin) and must be
 * decimals.
 */
export interface SpotOrderInput {
  side: OrderSide;
  style: OrderStyle;
  price?: string;
  amount: string;
  latestPrice: string;
  minNumber: string;
  maxNumber?: string;
  usableMain: string;
  usableTrade: string;
  email: string | null;
}

/**
 * Spec §5 "Spot order", first failure wins: bound email; then for limit orders
 * price required, numeric, above 0; amount required, numeric (and above 0);
 * minimum then maximum per side; balance. Market orders skip the price checks
 * and cost the buy at the latest price.
 */
export function checkSpotOrder(order: SpotOrderInput): RuleError | null {
  const emailError = checkEmailBound(order.email);
  if (emailError !== null) return emailError;
  if (order.style === 'limit') {
    const priceError = checkPositiveInput(order.price, 'price');
    if (priceError !== null) return priceError;
  }
  const amountError = checkPositiveInput(order.amount, 'amount');
  if (amountError !== null) return amountError;
  const amount = Dec.parse(order.amount);
  const boundsError = checkSideBounds(order.side, amount, order.minNumber, order.maxNumber);
  if (boundsError !== null) return boundsError;
  return checkSpotBalance(order, amount);
}

function checkSpotBalance(order: SpotOrderInput, amount: Dec): RuleError | null {
  const affordable =
    order.side === 'buy'
      ? spotReferencePrice(order).mul(amount).lte(Dec.parse(order.usableMain))
      : amount.lte(Dec.parse(order.usableTrade));
  return affordable ? null : ruleError('rules.insufficientBalance');
}

function spotReferencePrice(order: SpotOrderInput): Dec {
  return Dec.parse(order.style === 'limit' && order.price !== undefined ? order.price : order.latestPrice);
}

export interface SpotSliderInput {
  side: OrderSide;
  /** Slider position, a whole percent 0-100. */
  percent: number;
  usableMain: string;
  usableTrade: string;
  /** The entered price for a limit order, the latest price for a market order. */
  price: string;
  amountAccuracy: number;
}

/**
 * The amount a slider position stands for: buy = usable main coin × pct / price,
 * sell = usable trade coin × pct, floored to the pair's amount accuracy. Empty
 * when it comes to zero, or when a buy has no usable price yet.
 */
export function spotSliderAmount(input: SpotSliderInput): string {
  const percent = sliderPercent(input.percent);
  let amount: Dec;
  if (input.side === 'sell') {
    amount = Dec.parse(input.usableTrade).percent(percent);
  } else {
    const price = parseNumber(input.price);
    if (price === null || !price.isPositive()) return '';
    amount = Dec.parse(input.usableMain).percent(percent).div(price);
  }
  const floored = amount.floorTo(input.amountAccuracy);
  return floored.isPositive() ? floored.toString() : '';
}

/** Price step and minimum price of a pair: 10^-price_accuracy ("0.01" for 2). */
export function priceStep(priceAccuracy: number): string {
  return Dec.step(priceAccuracy).toString();
}
