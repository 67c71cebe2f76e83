import { Dec } from '@halyard/money';
import { REFERRAL_TOKEN } from '@halyard/rules';
import { feeLegOf, halFeeLegsOf } from '../../core/state/spot-legs.ts';
import type { AccountRef } from '../../ledger/index.ts';
import { CommissionBatch, type ReferralFees } from '../referral/index.ts';
import type { GroupWork, PendingFee } from './group.ts';
import { HOUSE_USER_ID, traderOf } from './trader.ts';

/**
 * A spot command's fees, settled after its matching (issue 17): in the coin
 * received, or in HAL with fee deduction, and each fee's referral
 * commission rows; everything joins the command's group transaction.
 */

/**
 * The fees of the command's trades: in HAL when the payer switched
 * deduction on and holds enough (the fee in the coin received is then
 * delivered too), else in the coin received; then each fee's referral
 * commission row. All in the group's transaction, after the trade legs, so a
 * fee and its commission row commit together or not at all. The row is
 * unpaid: the payout sweep credits it (referral/payouts.ts), so a trade
 * writes no payout transfer of its own.
 */
export async function settleFees(work: GroupWork, referral: ReferralFees): Promise<void> {
  const commissions = new CommissionBatch();
  for (const pending of work.fees.splice(0)) {
    const payer = traderOf(pending.order.owner);
    const counterparty = traderOf(pending.counterpartyOwner).userId;
    const house = payer.userId === HOUSE_USER_ID;
    // A cached profile answers most fees without waiting: no fee deduction, no inviter.
    const cached = house ? undefined : referral.cachedProfile(payer.userId);
    const hal =
      house || cached?.feeDeduction === false
        ? null
        : await referral.halFee(
            payer.userId,
            pending.coin,
            pending.fee,
            () => work.available(payer.account, REFERRAL_TOKEN),
            work.trx,
          );
    const charged = hal === null ? feeInCoin(work, pending) : feeInHal(work, pending, payer.account, hal);
    if (house || cached?.parentId === null) continue;
    const rows = await referral.plan(
      {
        product: 'spot',
        tradeId: pending.tradeId,
        legId: pending.legId,
        payerId: payer.userId,
        counterpartyId: counterparty === HOUSE_USER_ID ? null : counterparty,
        coin: charged.coin,
        fee: charged.fee,
        time: pending.trade.wdate,
      },
      work.trx,
    );
    commissions.add(rows);
  }
  work.commissionRows.push(...commissions.rows);
}

/** The fee in the coin received: what the trade leg kept back goes from clearing to the fee account. */
function feeInCoin(work: GroupWork, pending: PendingFee): { coin: string; fee: Dec } {
  work.pay(feeLegOf(pending, pending.reference));
  return { coin: pending.coin, fee: pending.fee };
}

/** The fee in HAL: the kept-back coin goes to the payer after all, and HAL from the payer to the fee account. */
function feeInHal(
  work: GroupWork,
  pending: PendingFee,
  account: AccountRef,
  hal: Dec,
): { coin: string; fee: Dec } {
  const { waived, charge } = halFeeLegsOf(pending, pending.reference, account, hal);
  work.pay(waived);
  work.charge(charge);
  const { order, trade } = pending;
  order.fee = Dec.parse(order.fee).sub(pending.fee).toString();
  order.fee_hal = Dec.parse(order.fee_hal).add(hal).toString();
  if (pending.side === 'buyer') {
    trade.buyer_fee = hal.toString();
    trade.buyer_fee_coin = REFERRAL_TOKEN;
  } else {
    trade.seller_fee = hal.toString();
    trade.seller_fee_coin = REFERRAL_TOKEN;
  }
  return { coin: REFERRAL_TOKEN, fee: hal };
}
