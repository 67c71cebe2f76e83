// A fill's money, as the engine and the money state both plan it: an
// opening fill's margin and fee (in the margin coin or in HAL), a closing
// fill's payout, loss and fee, and what one side of a trade paid, as the
// referral commissions see it. The legs go into the trade's one batch
// (futures-legs.ts builds them); nothing here reads or writes.
import type { TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { REFERRAL_TOKEN } from '@halyard/rules';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import type { ContractMarket, FuturesState } from './futures-book.ts';
import { isHouse } from './futures-commands.ts';
import { closeFillLegs, halFeeLeg, type LegId, openFillLegs, orderReference } from './futures-legs.ts';
import { closeFigures, feeOf, marginOf, notionalOf } from './futures-margin.ts';
import { reducePosition } from './futures-positions.ts';
import type { EntrustRow, PositionRow } from './futures-rows.ts';
import type { FeeCharge } from './referral-rules.ts';

/** An opening fill's fee in the margin coin: notional × gas. */
export function openFillFee(market: ContractMarket, trade: TradeEvent): Dec {
  return feeOf(notionalOf(trade.price, trade.amount, market.unit), market.gas);
}

/** What an opening fill adds to its order and position. */
export interface OpenFillFigures {
  notional: Dec;
  margin: Dec;
  fee: Dec;
  /** The fee in the margin coin: none when it was paid in HAL. */
  feeInCoin: Dec;
}

/**
 * An opening fill's legs into `legs` (the fee in HAL, `hal`, after them) and
 * the order's HAL fee recorded; answers its figures.
 */
export function openFillLegsOf(
  market: ContractMarket,
  row: EntrustRow,
  trade: TradeEvent,
  hal: Dec | null,
  id: LegId,
  legs: TransferInput[],
): OpenFillFigures {
  const notional = notionalOf(trade.price, trade.amount, market.unit);
  const margin = marginOf(notional, row.lever);
  const fee = feeOf(notional, market.gas);
  const leg = `${row.type}-open`;
  legs.push(
    ...openFillLegs({
      id,
      leg,
      autoid: row.autoid,
      userId: row.user_id,
      asset: market.contract.maincoin,
      margin,
      fee,
      feeInHal: !!hal,
    }),
  );
  if (hal) chargeHal(legs, id(`${leg}-fee-hal`), row, hal, orderReference(row.autoid));
  return { notional, margin, fee, feeInCoin: hal ? Dec.ZERO : fee };
}

/** The fill's figures added to its order and its position; answers whether it was the order's first fill. */
export function addOpenFill(
  row: EntrustRow,
  position: PositionRow,
  trade: TradeEvent,
  figures: OpenFillFigures,
): boolean {
  const { notional, margin, fee, feeInCoin } = figures;
  row.hold_spent = Dec.parse(row.hold_spent).add(margin).add(fee).toString();
  row.fee = Dec.parse(row.fee).add(feeInCoin).toString();
  row.margin = Dec.parse(row.margin).add(margin).toString();
  position.number = Dec.parse(position.number).add(trade.amount).toString();
  position.cost = Dec.parse(position.cost).add(notional).toString();
  position.margin = Dec.parse(position.margin).add(margin).toString();
  position.fees = Dec.parse(position.fees).add(feeInCoin).toString();
  const firstFill = row.position_id === null;
  row.position_id = position.autoid;
  return firstFill;
}

/** The open position a closing order closes. */
export function closingPosition(state: FuturesState, row: EntrustRow): PositionRow {
  const position = state.positions.get(row.position_id ?? -1);
  if (!position) throw new Error(`futures: close order ${row.autoid} has no open position`);
  return position;
}

/**
 * A closing fill's legs into `legs`, given the fee in HAL (`hal`, or null)
 * and the owner's free futures balance before the trade (`free`); the
 * order's fee and the position reduced.
 */
export function closeFillInto(
  state: FuturesState,
  market: ContractMarket,
  row: EntrustRow,
  position: PositionRow,
  price: Dec,
  lots: Dec,
  hal: Dec | null,
  free: Dec,
  id: LegId,
  legs: TransferInput[],
): void {
  const figures = closeFigures(state.positionFigures(position), lots, price);
  const notional = notionalOf(price, lots, market.unit);
  // Paid in HAL, nothing of the fee comes out of the position or the wallet.
  const fee = hal ? Dec.ZERO : feeOf(notional, market.gas);
  const account = userAccount(position.user_id, 'futures');
  const asset = market.contract.maincoin;
  const leg = `${row.type}-close`;
  const cross = position.td_mode === 'cross';
  const gross = figures.marginReleased.add(figures.realised);
  const close = closeFillLegs({ id, leg, autoid: row.autoid, account, asset, cross, gross, fee, free });
  legs.push(...close.legs);
  if (hal) chargeHal(legs, id(`${leg}-fee-hal`), row, hal, orderReference(row.autoid));
  row.fee = Dec.parse(row.fee).add(close.feePaid).toString();
  reducePosition(state, position, lots, price, figures, close.feePaid);
}

/** A fee paid in HAL: its leg, and the entrust records it apart from its coin fee. */
export function chargeHal(
  legs: TransferInput[],
  id: string,
  row: EntrustRow,
  hal: Dec,
  reference: string,
): void {
  legs.push(halFeeLeg(id, row.user_id, hal, reference));
  row.fee_hal = Dec.parse(row.fee_hal).add(hal).toString();
}

/** One side of a trade whose fee may pay commissions, with its fees as they stood before the fill. */
export interface FeeFill {
  market: ContractMarket;
  row: EntrustRow;
  counterparty: EntrustRow;
  tradeId: string;
  legId: string;
  feeBefore: Dec;
  halBefore: Dec;
  now: number;
}

/**
 * What one side of a trade just paid, as the commissions see it: its fee in
 * HAL, else in the margin coin (a closing fee the position could not pay in
 * full is what was paid). The engine and the money state plan from this.
 */
export function feeChargeOf(fill: FeeFill): FeeCharge {
  const { row, counterparty } = fill;
  const halPaid = Dec.parse(row.fee_hal).sub(fill.halBefore);
  return {
    product: 'futures',
    tradeId: fill.tradeId,
    legId: fill.legId,
    payerId: row.user_id,
    counterpartyId: isHouse(counterparty.owner) ? null : counterparty.user_id,
    coin: halPaid.isPositive() ? REFERRAL_TOKEN : fill.market.contract.maincoin,
    fee: halPaid.isPositive() ? halPaid : Dec.parse(row.fee).sub(fill.feeBefore),
    time: fill.now,
  };
}
