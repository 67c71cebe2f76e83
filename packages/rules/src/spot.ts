import { Dec } from '@halyard/money';
import { checkEmailBound } from './account.ts';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput, parseNumber } from './number.ts';
import { checkSideBoundsOf, maxBoundOf, type OrderSide, type OrderStyle, sliderPercent } from './order.ts';

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
  const typed = checkSpotOrderText(order);
  if (isRuleError(typed)) return typed;
  const minNumber = Dec.parse(order.minNumber);
  const maxNumber = maxBoundOf(order.maxNumber);
  // Only what the order's side spends is read: a form may leave the other balance, or a sell's latest price, empty.
  return checkSpotOrderFigures(
    order.side === 'buy'
      ? {
          side: 'buy',
          amount: typed.amount,
          minNumber,
          maxNumber,
          price: typed.price ?? Dec.parse(order.latestPrice),
          usableMain: Dec.parse(order.usableMain),
        }
      : {
          side: 'sell',
          amount: typed.amount,
          minNumber,
          maxNumber,
          usableTrade: Dec.parse(order.usableTrade),
        },
  );
}

/** The figures a typed spot order passed with: its limit price (null for a market order) and its amount. */
export interface SpotOrderText {
  price: Dec | null;
  amount: Dec;
}

/**
 * The checks of what a user typed, in `checkSpotOrder`'s order: bound email,
 * then a limit order's price, then the amount. Answers the parsed figures, so
 * that a caller holding the rest as numbers (the server's money state) goes
 * on with `checkSpotOrderFigures` without writing them out as text.
 */
export function checkSpotOrderText(
  order: Pick<SpotOrderInput, 'style' | 'price' | 'amount' | 'email'>,
): SpotOrderText | RuleError {
  const emailError = checkEmailBound(order.email);
  if (emailError !== null) return emailError;
  if (order.style === 'limit') {
    const priceError = checkPositiveInput(order.price, 'price');
    if (priceError !== null) return priceError;
  }
  const amountError = checkPositiveInput(order.amount, 'amount');
  if (amountError !== null) return amountError;
  return {
    price: order.style === 'limit' ? Dec.parse(order.price!) : null,
    amount: Dec.parse(order.amount),
  };
}

/** A spot order's figures after its text passed: the pair's bounds and what its side spends. */
export type SpotOrderFigures = {
  amount: Dec;
  minNumber: Dec;
  /** None configured: null. */
  maxNumber: Dec | null;
} & (
  | {
      side: 'buy';
      /** The price a buy is costed at: its limit price, or the latest price for a market buy. */
      price: Dec;
      usableMain: Dec;
    }
  | { side: 'sell'; usableTrade: Dec }
);

/** The rest of `checkSpotOrder`, on figures: minimum then maximum per side, then balance. */
export function checkSpotOrderFigures(order: SpotOrderFigures): RuleError | null {
  const boundsError = checkSideBoundsOf(order.side, order.amount, order.minNumber, order.maxNumber);
  if (boundsError !== null) return boundsError;
  const affordable =
    order.side === 'buy'
      ? order.price.mul(order.amount).lte(order.usableMain)
      : order.amount.lte(order.usableTrade);
  return affordable ? null : ruleError('rules.insufficientBalance');
}

function isRuleError(value: SpotOrderText | RuleError): value is RuleError {
  return 'key' in value;
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
