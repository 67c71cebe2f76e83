import { REFERRAL_PAYOUT_BATCH } from '@halyard/rules';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult, ReferralPayoutCommand } from './commands.ts';
import { applyTransfers, type MoneyState } from './money-state.ts';
import { planCommissionPayout, type UnpaidCommission } from './referral-rules.ts';

/**
 * The referral payout sweep in the state, as modules/referral/payouts.ts
 * runs it from SQL: the accrued rows, oldest first, in batches of
 * REFERRAL_PAYOUT_BATCH, each batch summed per earner, coin and kind into
 * transfers from the fee account (planCommissionPayout, the one plan both
 * use) and its rows credited. The fee account holds every fee the rows were
 * cut from, so the transfers cannot be refused; a refusal would be a bug,
 * and throws.
 */
export function applyReferralPayout(
  state: MoneyState,
  command: ReferralPayoutCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  const events: MoneyEvent[] = [];
  let paid = 0;
  for (let rows = oldestUnpaid(state); rows.length > 0; rows = oldestUnpaid(state)) {
    paid += rows.length;
    const payout = planCommissionPayout(rows, command.at);
    const transfers = applyTransfers(state, payout, command.at, seq, true).newTransfers;
    for (const row of rows) state.referral.unpaid.delete(row.legId);
    if (emit)
      events.push(
        { type: 'transfers', transfers },
        { type: 'referralPaid', at: command.at, legIds: rows.map((row) => row.legId) },
      );
  }
  return { result: { ok: true, commissionsPaid: paid }, events };
}

/** The oldest accrued rows, a batch at most (the module's sweep reads as many). */
function oldestUnpaid(state: MoneyState): UnpaidCommission[] {
  const rows: UnpaidCommission[] = [];
  for (const row of state.referral.unpaid.values()) {
    if (rows.length === REFERRAL_PAYOUT_BATCH) break;
    rows.push(row);
  }
  return rows;
}
