// A fill's fee beyond the margin coin, as modules/referral decides both from
// SQL: paid in HAL with fee deduction, and the referral commissions it earns,
// paid in the trade's own ledger batch. What a side paid and the HAL leg are
// core/state/futures-fills.ts's; the fee in the margin coin is planned with
// the fill's legs (core/state/futures-legs.ts).
import type { Dec } from '@halyard/money';
import { REFERRAL_TOKEN } from '@halyard/rules';
import type { ContractMarket } from '../../core/state/futures-book.ts';
import { type FeeFill, feeChargeOf } from '../../core/state/futures-fills.ts';
import type { EntrustRow } from '../../core/state/futures-rows.ts';
import { userAccount } from '../../ledger/index.ts';
import type { CommissionBatch } from '../referral/index.ts';
import type { GroupContext } from './state.ts';

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

/** The referral commissions on what one side of a trade just paid ({@link feeChargeOf}), added to the trade's batch. */
export async function planCommissions(
  group: GroupContext,
  commissions: CommissionBatch,
  fill: FeeFill,
): Promise<void> {
  commissions.add(await group.referral.plan(feeChargeOf(fill), group.trx));
}
