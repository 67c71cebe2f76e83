// A fill's fee beyond the margin coin (modules/referral decides both): paid
// in HAL with fee deduction, and the referral commissions it earns, paid in
// the trade's own ledger batch. The fee in the margin coin itself is planned
// with the fill's legs (ledger-plan.ts).
import { Dec } from '@halyard/money';
import { REFERRAL_TOKEN } from '@halyard/rules';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import type { CommissionBatch, FeeCharge } from '../referral/index.ts';
import { isHouse } from './commands.ts';
import { halFeeLeg } from './ledger-plan.ts';
import type { ContractMarket, GroupContext } from './state.ts';
import type { EntrustRow } from './store.ts';

/** The fee in HAL when the user switched fee deduction on and holds enough in spot, else null. */
export function halFee(
  group: GroupContext,
  row: EntrustRow,
  market: ContractMarket,
  fee: Dec,
): Promise<Dec | null> {
  const spotHal = { ...userAccount(row.user_id, 'spot'), asset: REFERRAL_TOKEN };
  return group.referral.halFee(
    row.user_id,
    market.contract.maincoin,
    fee,
    async () => (await group.ledger.balance(spotHal, group.trx)).available,
    group.trx,
  );
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

/** The referral commissions on what one side of a trade just paid ({@link feeChargeOf}), added to the trade's batch. */
export async function planCommissions(
  group: GroupContext,
  commissions: CommissionBatch,
  fill: FeeFill,
): Promise<void> {
  commissions.add(await group.referral.plan(feeChargeOf(fill), group.trx));
}
