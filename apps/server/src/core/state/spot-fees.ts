import type { Dec } from '@halyard/money';
import { REFERRAL_TOKEN } from '@halyard/rules';
import type { AccountRef, TransferInput } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import type { SpotTradeRecord } from './commands.ts';
import { applyTransfers, available, type MoneyState, type OpenOrder, withFillTotals } from './money-state.ts';
import { accrueCommission, referralUserOf, tierOf } from './referral.ts';
import {
  CommissionBatch,
  type CommissionRow,
  commissionExclusion,
  type FeeCharge,
  halFeeQuote,
  planCommission,
} from './referral-rules.ts';
import { feeLegOf, halFeeLegsOf, type TradeFee } from './spot-legs.ts';

/**
 * A spot command's fee step, after its trade legs, as modules/spot/fees.ts
 * settles it: each fee in order (per trade the seller's, then the buyer's)
 * in the coin received, or in HAL when the payer has fee deduction on, both
 * coins have an index price and the payer's available HAL covers it; then
 * each fee's referral commission row, accrued unpaid (`referralPayout` credits it).
 */

/** A fee a trade kept back in clearing, waiting for the fee step. */
export interface OwedFee extends TradeFee {
  tradeId: string;
  reference: string;
  /** The trade's place among the command's trade records. */
  tradeIndex: number;
  side: 'buyer' | 'seller';
  orderId: number;
  payer: AccountRef;
  counterparty: AccountRef;
}

export interface SettledFees {
  transfers: NewTransfer[];
  commissions: CommissionRow[];
}

/**
 * Pays the fees and writes their commission rows; a fee taken in HAL moves from the
 * order's `fee` to its `feeHal` and the trade record names HAL as that
 * side's fee coin (`touched` and `trades` are changed: they are the
 * command's own, not yet in the state; `trades` is null when the command
 * builds no events).
 */
export function settleFees(
  state: MoneyState,
  owed: readonly OwedFee[],
  touched: Map<number, OpenOrder>,
  trades: SpotTradeRecord[] | null,
  at: number,
  seq: number,
): SettledFees {
  const transfers: NewTransfer[] = [];
  const batch = new CommissionBatch();
  // A fee in its coin moves it from clearing to the fee account and changes no user's balance, so its leg
  // waits to go in one batch with the next: a fee in HAL, whose choice reads the payer's HAL after the
  // fees before it, or the end. The same transfers, in the same order, in one batch instead of one a fee.
  let legs: TransferInput[] = [];
  for (const fee of owed) {
    const payerId = userIdOf(fee.payer);
    const hal = payerId === null ? null : halFeeFor(state, payerId, fee.fee, fee.coin, fee.payer);
    if (hal === null) legs.push(feeLegOf(fee, fee.reference));
    else {
      const { waived, charge } = halFeeLegsOf(fee, fee.reference, fee.payer, hal);
      legs.push(waived, charge);
      paidInHal(fee, hal, touched, trades);
      legs = applyFeeLegs(state, legs, at, seq, transfers);
    }
    if (payerId !== null) {
      const charge: FeeCharge = {
        product: 'spot',
        tradeId: fee.tradeId,
        legId: fee.legId,
        payerId,
        counterpartyId: userIdOf(fee.counterparty),
        coin: hal === null ? fee.coin : REFERRAL_TOKEN,
        fee: hal ?? fee.fee,
        time: at,
      };
      commissionOf(state, charge, batch);
    }
  }
  applyFeeLegs(state, legs, at, seq, transfers);
  return { transfers, commissions: batch.rows };
}

/** Applies the fee legs waiting, if any, adding their transfers to `transfers`; answers an empty list for the next. */
function applyFeeLegs(
  state: MoneyState,
  legs: TransferInput[],
  at: number,
  seq: number,
  transfers: NewTransfer[],
): TransferInput[] {
  if (legs.length === 0) return legs;
  for (const transfer of applyTransfers(state, legs, at, seq, true).newTransfers) transfers.push(transfer);
  return [];
}

/**
 * A fee of `fee` in `coin` in HAL from `halAccount` (spot pays from the
 * trading account, futures from the user's spot wallet), or null: deduction
 * off, a price missing, a fee too small, or HAL short.
 */
export function halFeeFor(
  state: MoneyState,
  payerId: number,
  fee: Dec,
  coin: string,
  halAccount: AccountRef,
): Dec | null {
  const { referral } = state;
  if (!referralUserOf(referral, payerId).feeDeduction) return null;
  const hal = halFeeQuote(fee, coin, (priced) => referral.indexPrices.get(priced), referral.halDiscount);
  if (hal === null || hal.gt(available(state, halAccount, REFERRAL_TOKEN))) return null;
  return hal;
}

function paidInHal(
  fee: OwedFee,
  hal: Dec,
  touched: Map<number, OpenOrder>,
  trades: SpotTradeRecord[] | null,
): void {
  const order = touched.get(fee.orderId)!;
  touched.set(
    order.id,
    withFillTotals(order, {
      remaining: order.remaining,
      holdSpent: order.holdSpent,
      dealMoney: order.dealMoney,
      fee: order.fee.sub(fee.fee),
      feeHal: order.feeHal.add(hal),
    }),
  );
  if (trades === null) return;
  const trade = trades[fee.tradeIndex]!;
  trades[fee.tradeIndex] =
    fee.side === 'buyer'
      ? { ...trade, buyerFee: hal.toString(), buyerFeeCoin: REFERRAL_TOKEN }
      : { ...trade, sellerFee: hal.toString(), sellerFeeCoin: REFERRAL_TOKEN };
}

/** The fee's commission row, accrued unpaid, when its payer has an inviter (modules/referral's `plan`). */
export function commissionOf(state: MoneyState, charge: FeeCharge, batch: CommissionBatch): void {
  // As modules/referral's plan: a fee of nothing (a futures closing fee waived) pays nothing.
  if (!charge.fee.isPositive()) return;
  const { referral } = state;
  const payer = referralUserOf(referral, charge.payerId);
  if (payer.parentId === null) return;
  const inviter = referralUserOf(referral, payer.parentId);
  const grand = inviter.parentId === null ? null : referralUserOf(referral, inviter.parentId);
  const makers = referral.marketMakers;
  const tier = commissionExclusion(charge, payer, inviter, makers)
    ? null
    : tierOf(referral, inviter.userId, charge.time);
  batch.add([planCommission(charge, payer, inviter, grand, makers, tier)]);
  accrueCommission(referral, batch.rows.at(-1)!);
}

/** A user's id from their account; null for the house and the system. */
function userIdOf(account: AccountRef): number | null {
  return typeof account.owner === 'number' ? account.owner : null;
}
