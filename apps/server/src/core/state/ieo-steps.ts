import { Dec } from '@halyard/money';
import type { RuleError } from '@halyard/rules';
import { LEDGER_ERRORS, type TransferInput } from '../../ledger/index.ts';
import { isLedgerRefusal } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import {
  type IeoOrderRecord,
  type IeoRowOp,
  type IeoSale,
  noteUserOrder,
  type OwedRebate,
  trancheKey,
} from './ieo.ts';
import {
  type IeoSaleTerms,
  type IeoVestingOf,
  ieoAnonIdOf,
  ieoFundingOf,
  ieoRebateOf,
  ieoRebateTransfer,
  ieoTranchesOf,
} from './ieo-rules.ts';
import { applyTransfers, type MoneyState, tryApplyTransfers } from './money-state.ts';
import { referralUserOf } from './referral.ts';
import { type CommissionRow, promotionRebateRow } from './referral-rules.ts';

/**
 * The steps the IEO commands share (ieo-sale.ts, ieo-clock.ts): what one
 * command did so far (`Work`), its refusals, an order made or changed, a
 * delivery recorded, a rebate paid, a sale's state moved.
 */

export type Outcome = Applied<MoneyResult, MoneyEvent>;

/** What one command did: its transfers (applied already), rows and commission rows, published in that order. */
export class Work {
  readonly transfers: string[] = [];
  readonly events: MoneyEvent[] = [];
  readonly ops: IeoRowOp[] = [];
  readonly commissions: CommissionRow[] = [];

  constructor(
    readonly state: MoneyState,
    readonly at: number,
    readonly seq: number,
    readonly emit: boolean,
  ) {}

  /**
   * A batch of the clock or a cancel, named after the state's own orders and
   * made safe by its checks: a refusal here is a bug, so it throws (and stops
   * the sequencer), as spot's trade batch does.
   */
  move(batch: TransferInput[]): void {
    if (batch.length === 0) return;
    const plan = applyTransfers(this.state, batch, this.at, this.seq, true);
    this.transfers.push(...plan.results);
    if (this.emit && plan.newTransfers.length > 0)
      this.events.push({ type: 'transfers', transfers: plan.newTransfers });
  }

  /**
   * A batch named by ids the edge stamped: refused as a value (changing
   * nothing) when the ledger refuses it or an id was used before, since a
   * retried id would move nothing a second time.
   */
  tryMove(batch: TransferInput[]): Outcome | null {
    for (const transfer of batch)
      if (this.state.ledger.transfers.has(transfer.id))
        return refusal(LEDGER_ERRORS.idConflict, { transferId: transfer.id });
    const plan = tryApplyTransfers(this.state, batch, this.at, this.seq);
    if (isLedgerRefusal(plan))
      return refusal(plan.refused, plan.transferId === null ? undefined : { transferId: plan.transferId });
    this.transfers.push(...plan.results);
    if (this.emit && plan.newTransfers.length > 0)
      this.events.push({ type: 'transfers', transfers: plan.newTransfers });
    return null;
  }

  done(result: MoneyResult): Outcome {
    if (!this.emit) return { result, events: [] };
    const events = [...this.events];
    if (this.ops.length > 0) events.push({ type: 'ieo', ops: this.ops });
    if (this.commissions.length > 0) events.push({ type: 'referralCommissions', rows: this.commissions });
    return { result, events };
  }
}

export function refusal(key: string, params?: Record<string, string | number>): Outcome {
  return {
    result: params === undefined ? { ok: false, error: key } : { ok: false, error: key, params },
    events: [],
  };
}

export function ruleRefusal(error: RuleError): Outcome {
  return refusal(error.key, error.params);
}

export const isText = (value: unknown): value is string => typeof value === 'string';

export function fundingOf(terms: IeoSaleTerms): Dec {
  return ieoFundingOf(Dec.parse(terms.total), Dec.parse(terms.gift), terms.tokenDecimals);
}

export function vestingOf(sale: IeoSale): IeoVestingOf {
  const { terms } = sale;
  return {
    projectId: sale.projectId,
    coin: terms.coin,
    tokenDecimals: terms.tokenDecimals,
    vesting: terms.vesting,
    endAt: terms.endAt,
  };
}

export function malformed(): Outcome {
  return refusal('ledger.invalidTransfer', { field: 'command' });
}

export function newOrder(
  work: Work,
  sale: IeoSale,
  userId: number,
  fields: Pick<IeoOrderRecord, 'paycoin' | 'price' | 'amount' | 'spent' | 'tokens' | 'gift' | 'state'>,
): IeoOrderRecord {
  const { ieo } = work.state;
  const order: IeoOrderRecord = {
    id: ieo.nextOrderId,
    project_id: sale.projectId,
    user_id: userId,
    holds: 0,
    refund: '0',
    anon_id: ieoAnonIdOf(sale.salt, userId),
    served_round: null,
    created_at: work.at,
    ...fields,
  };
  ieo.nextOrderId += 1;
  ieo.orders.set(order.id, order);
  sale.orderIds.push(order.id);
  noteUserOrder(ieo, order);
  work.ops.push({ op: 'insertOrder', row: { ...order } });
  return order;
}

export function updateOrder(
  work: Work,
  order: IeoOrderRecord,
  set: Partial<Omit<IeoOrderRecord, 'id'>>,
): void {
  Object.assign(order, set);
  work.ops.push({ op: 'updateOrder', id: order.id, set });
}

/**
 * The tranche rows of a delivery and the inviter's rebate: owed (FCFS), or
 * paid now (`payNow`: a commit-mode sale being distributed) and answered as
 * its transfer, to be moved after the payments it comes from.
 */
export function recordDelivery(
  work: Work,
  sale: IeoSale,
  order: IeoOrderRecord,
  delivered: Dec,
  spent: Dec,
  payNow: boolean,
): TransferInput[] {
  if (delivered.isPositive()) {
    const planned = ieoTranchesOf(vestingOf(sale), delivered);
    for (const tranche of planned)
      work.state.ieo.tranches.set(trancheKey(order.id, tranche.seq), {
        orderId: order.id,
        seq: tranche.seq,
        releaseAt: tranche.releaseAt,
        until: tranche.until,
        amount: tranche.amount.toString(),
        released: '0',
        nextReleaseAt: tranche.releaseAt,
        tokenDecimals: sale.terms.tokenDecimals,
      });
    work.ops.push({
      op: 'insertTranches',
      rows: planned.map((tranche) => ({
        order_id: order.id,
        seq: tranche.seq,
        user_id: order.user_id,
        coin: sale.terms.coin,
        release_at: tranche.releaseAt,
        until: tranche.until,
        amount: tranche.amount.toString(),
        released_amount: '0',
        next_release_at: tranche.releaseAt,
        released_at: null,
      })),
    });
  }
  const inviterId = referralUserOf(work.state.referral, order.user_id).parentId;
  const rebate = ieoRebateOf(spent, Dec.parse(sale.terms.rebate));
  if (inviterId === null || !rebate.isPositive()) return [];
  work.ops.push({
    op: 'insertRebate',
    row: {
      order_id: order.id,
      inviter_id: inviterId,
      coin: order.paycoin,
      amount: rebate.toString(),
      state: 'owed',
      created_at: work.at,
      paid_by: null,
      paid_at: null,
    },
  });
  const owed = { orderId: order.id, inviterId, amount: rebate.toString() };
  if (!payNow) {
    work.state.ieo.owed.set(order.id, owed);
    return [];
  }
  return [payRebate(work, sale, owed)];
}

/** Marks a rebate paid, adds its commission row (product `ieo`), and answers the transfer that pays it. */
export function payRebate(work: Work, sale: IeoSale, owed: OwedRebate): TransferInput {
  const order = work.state.ieo.orders.get(owed.orderId)!;
  const transfer = ieoRebateTransfer(
    { orderId: owed.orderId, projectId: sale.projectId, inviterId: owed.inviterId, coin: order.paycoin },
    Dec.parse(owed.amount),
  );
  work.state.ieo.owed.delete(owed.orderId);
  work.ops.push({ op: 'markRebatePaid', orderId: owed.orderId, transferId: transfer.id, at: work.at });
  work.commissions.push(
    promotionRebateRow({
      transferId: transfer.id,
      orderReference: `ieo:order:${owed.orderId}`,
      inviterId: owed.inviterId,
      buyerId: order.user_id,
      coin: order.paycoin,
      paid: Dec.canonical(order.spent),
      rate: Dec.canonical(sale.terms.rebate),
      amount: Dec.canonical(owed.amount),
      time: work.at,
    }),
  );
  return transfer;
}

export function moveState(work: Work, sale: IeoSale, to: string): void {
  sale.state = to;
  work.ops.push({ op: 'updateProject', id: sale.projectId, set: { state: to, updated_at: work.at } });
}
