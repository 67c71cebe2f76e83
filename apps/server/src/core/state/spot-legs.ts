import type { TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import {
  checkSpotOrderFigures,
  checkSpotOrderText,
  maxBoundOf,
  PRICE_INTEGER_DIGITS,
  REFERRAL_TOKEN,
  type RuleError,
  type SpotOrderFigures,
} from '@halyard/rules';
import {
  type AccountRef,
  type MoveInput,
  type PostInput,
  systemAccount,
  type VoidInput,
} from '../../ledger/index.ts';

/**
 * The spot rules both writers of spot orders share: the checks of a new
 * order and the ledger transfers of its hold, trades, fees and release, with
 * their ids, codes and references. modules/spot writes them to the store;
 * the sequenced core (spot.ts) decides them in memory. One place, so the two
 * can never write different ledgers for the same orders.
 */

const CLEARING = systemAccount('clearing');
const FEES = systemAccount('fees');
const PRICE_CEILING = Dec.fromInt(10n ** BigInt(PRICE_INTEGER_DIGITS));
/**
 * A market buy holds latest price × amount × (1 + this), capped at the usable
 * quote: the book may fill at worse prices than the latest, but never spends
 * more than the hold.
 */
const MARKET_BUY_SLIPPAGE = Dec.parse('0.05');

/** A moving transfer with every field the callers read. */
export type SpotMove = MoveInput & { credit: AccountRef; asset: string; amount: Dec };

export interface SpotOrderRequest {
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  /** Limit only, as typed. */
  price?: string | undefined;
  /** Base amount, as typed. */
  amount: string;
  email: string | null;
}

export interface SpotPairRules {
  minNumber: string;
  maxNumber: string;
  priceAccuracy: number;
  amountAccuracy: number;
}

/** What the order is checked against: the latest price (null when none is known) and the trader's usable coins. */
export interface SpotOrderContext {
  latest: Dec | null;
  usableMain: Dec;
  usableTrade: Dec;
}

/** A place command after the checks: exact values. */
export interface SpotOrderPlan {
  price: Dec | null;
  amount: Dec;
  /** Quote for a buy, base for a sell. */
  hold: Dec;
}

/**
 * Spec §5 checks in order, then the pair's precision: a limit price may not
 * be finer than price_accuracy; the amount is floored to amount_accuracy
 * (spec: amounts are floored) and checked again, so the minimum applies to
 * what is actually ordered. Answers the plan or the first refusal.
 */
export function planSpotOrder(
  request: SpotOrderRequest,
  pair: SpotPairRules,
  context: SpotOrderContext,
): SpotOrderPlan | RuleError {
  const typed = checkSpotOrderText({
    style: request.style,
    ...(request.style === 'limit' ? { price: request.price ?? '' } : {}),
    amount: request.amount,
    email: request.email,
  });
  if (isRefusal(typed)) return typed;
  // The rest of the rules on the numbers this state holds: no balance or price is written out as text to be read again.
  const minNumber = Dec.parse(pair.minNumber);
  const maxNumber = maxBoundOf(pair.maxNumber);
  const figures: SpotOrderFigures =
    request.side === 'buy'
      ? {
          side: 'buy',
          amount: typed.amount,
          minNumber,
          maxNumber,
          // A market buy without a latest price passes here and is refused below (spot.noPrice).
          price: typed.price ?? context.latest ?? Dec.ZERO,
          usableMain: context.usableMain,
        }
      : { side: 'sell', amount: typed.amount, minNumber, maxNumber, usableTrade: context.usableTrade };
  const firstError = checkSpotOrderFigures(figures);
  if (firstError) return firstError;
  const amount = typed.amount.floorTo(pair.amountAccuracy);
  // The rules are a function of their input alone: the floored amount needs its own check only when it differs.
  if (!amount.eq(typed.amount)) {
    const flooredError = checkSpotOrderFigures({ ...figures, amount });
    if (flooredError) return flooredError;
  }
  if (typed.price !== null) {
    const price = typed.price;
    // Spec §5: a price has at most 13 integer digits; it also keeps every hold inside a NUMERIC(48,18).
    if (price.gte(PRICE_CEILING))
      return refusal('rules.tooManyIntegerDigits', { digits: PRICE_INTEGER_DIGITS });
    if (!price.hasAtMostDigits(pair.priceAccuracy))
      return refusal('rules.tooManyDecimals', { digits: pair.priceAccuracy });
    return { price, amount, hold: request.side === 'buy' ? price.mul(amount) : amount };
  }
  if (request.side === 'sell') return { price: null, amount, hold: amount };
  if (context.latest === null) return refusal('spot.noPrice');
  const guarded = context.latest.mul(amount).mul(Dec.ONE.add(MARKET_BUY_SLIPPAGE));
  return { price: null, amount, hold: Dec.min(guarded, context.usableMain) };
}

/** A refusal with params only when it has any (as the rules package writes them). */
function refusal(key: string, params?: RuleError['params']): RuleError {
  return params === undefined ? { key } : { key, params };
}

export function isRefusal<T extends object>(planned: T | RuleError): planned is RuleError {
  return 'key' in planned;
}

/**
 * The order's hold: what it may spend, from the trader into clearing. It and
 * every other leg of an order are `derived`: their ids come from the order's,
 * which is handed out once, so no retry can name them. The money state
 * forgets the hold when its order leaves the book (it is closed by then).
 */
export function holdOf(
  orderId: number,
  account: AccountRef,
  asset: string,
  amount: Dec,
): MoveInput & { type: 'pending'; asset: string; amount: Dec } {
  return {
    id: holdId(orderId),
    type: 'pending',
    debit: account,
    credit: CLEARING,
    asset,
    amount,
    code: 'spot_order',
    reference: orderReference(orderId),
    derived: true,
  };
}

/** Releases what the order's hold still reserves (a cancelled rest, or the dust of a buy filled below its limit). */
export function releaseOf(orderId: number): VoidInput {
  return {
    id: `spot:${orderId}:release`,
    type: 'void_pending',
    pendingId: holdId(orderId),
    code: 'spot_release',
    reference: orderReference(orderId),
    derived: true,
  };
}

/** One side of a trade: its order and the account it is paid into. */
export interface TradeSide {
  orderId: number;
  account: AccountRef;
}

export interface TradeLegsInput {
  trade: TradeEvent;
  /** The trade's place among the taker command's trades. */
  index: number;
  buyer: TradeSide;
  seller: TradeSide;
  maincoin: string;
  tradcoin: string;
  makerFee: Dec;
  takerFee: Dec;
}

/** A fee a trade owes, kept back in clearing: in the coin its payer receives. */
export interface TradeFee {
  /** The fee transfer's id. */
  legId: string;
  coin: string;
  fee: Dec;
}

export interface TradeLegs {
  tradeId: string;
  reference: string;
  /** Both holds posted into clearing: the buyer's quote, the seller's base. */
  posts: [PostInput, PostInput];
  /** Each side paid from clearing, less its fee: the seller in quote, the buyer in base. */
  deliveries: [SpotMove, SpotMove];
  buyerFee: TradeFee;
  sellerFee: TradeFee;
}

/**
 * One trade's ledger legs, named after the taker's order; each side's fee
 * (at the maker or taker rate) is deducted from what it receives and kept
 * back in clearing for the fee step.
 */
export function tradeLegs(input: TradeLegsInput): TradeLegs {
  const { trade, buyer, seller, maincoin, tradcoin } = input;
  const takerId = trade.takerSide === 'buy' ? buyer.orderId : seller.orderId;
  const buyerRate = trade.takerSide === 'buy' ? input.takerFee : input.makerFee;
  const sellerRate = trade.takerSide === 'sell' ? input.takerFee : input.makerFee;
  const buyerFee = trade.amount.mul(buyerRate);
  const sellerFee = trade.quoteAmount.mul(sellerRate);
  const tradeId = `spot:${takerId}:t${input.index}`;
  const reference = orderReference(takerId);
  return {
    tradeId,
    reference,
    posts: [
      postLeg(tradeId, reference, 'quote', buyer, trade.quoteAmount),
      postLeg(tradeId, reference, 'base', seller, trade.amount),
    ],
    deliveries: [
      deliverLeg(tradeId, reference, 'to-seller', seller, maincoin, trade.quoteAmount.sub(sellerFee)),
      deliverLeg(tradeId, reference, 'to-buyer', buyer, tradcoin, trade.amount.sub(buyerFee)),
    ],
    buyerFee: { legId: `${tradeId}:buyer-fee`, coin: tradcoin, fee: buyerFee },
    sellerFee: { legId: `${tradeId}:seller-fee`, coin: maincoin, fee: sellerFee },
  };
}

// Module functions, not closures made per trade: a replay builds millions of legs (docs/core.md "Replay after issue #19").

/** A side's hold posted into clearing. */
function postLeg(tradeId: string, reference: string, leg: string, side: TradeSide, amount: Dec): PostInput {
  return {
    id: `${tradeId}:${leg}`,
    type: 'post_pending',
    pendingId: holdId(side.orderId),
    amount,
    code: 'spot_trade',
    reference,
    derived: true,
  };
}

/** What a side receives, paid from clearing. */
function deliverLeg(
  tradeId: string,
  reference: string,
  leg: string,
  side: TradeSide,
  asset: string,
  amount: Dec,
): SpotMove {
  return {
    id: `${tradeId}:${leg}`,
    debit: CLEARING,
    credit: side.account,
    asset,
    amount,
    code: 'spot_trade',
    reference,
    derived: true,
  };
}

/** A fee in the coin received: what the trade leg kept back goes from clearing to the fee account. */
export function feeLegOf(fee: TradeFee, reference: string): SpotMove {
  return {
    id: fee.legId,
    debit: CLEARING,
    credit: FEES,
    asset: fee.coin,
    amount: fee.fee,
    code: 'spot_fee',
    reference,
    derived: true,
  };
}

/** A fee paid in HAL instead: the kept-back coin goes to the payer after all, and HAL from the payer to the fee account. */
export function halFeeLegsOf(
  fee: TradeFee,
  reference: string,
  payer: AccountRef,
  hal: Dec,
): { waived: SpotMove; charge: MoveInput & { debit: AccountRef; asset: string; amount: Dec } } {
  return {
    waived: {
      id: `${fee.legId}:waived`,
      debit: CLEARING,
      credit: payer,
      asset: fee.coin,
      amount: fee.fee,
      code: 'spot_trade',
      reference,
      derived: true,
    },
    charge: {
      id: fee.legId,
      debit: payer,
      credit: FEES,
      asset: REFERRAL_TOKEN,
      amount: hal,
      code: 'spot_fee',
      reference,
      derived: true,
    },
  };
}

/** A buy holds the main coin, a sell the trade coin. */
export function heldAssetOf(side: 'buy' | 'sell', pair: { maincoin: string; tradcoin: string }): string {
  return side === 'buy' ? pair.maincoin : pair.tradcoin;
}

export function holdId(orderId: number): string {
  return `spot:${orderId}:hold`;
}

function orderReference(orderId: number): string {
  return `spot:${orderId}`;
}
