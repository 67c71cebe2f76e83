import { Dec } from '@halyard/money';
import { IEO_PAY_DECIMALS } from '@halyard/rules';
import type { TransferInput } from '../../ledger/index.ts';
import type { MoneyResult } from './commands.ts';
import {
  type IeoAdvanceCommand,
  type IeoOrderRecord,
  type IeoPayRebatesCommand,
  type IeoReleaseCommand,
  type IeoSale,
  type IeoTrancheMoney,
  trancheKey,
} from './ieo.ts';
import { allocationSummaryOf, settleCommits } from './ieo-allocation.ts';
import {
  IEO_DISTRIBUTE_BATCH,
  type IeoSaleTerms,
  ieoCancellable,
  ieoCommitHoldId,
  ieoDeliveryTransfers,
  ieoGiftOf,
  ieoReleaseOf,
  ieoSettlementTransfers,
} from './ieo-rules.ts';
import {
  moveState,
  type Outcome,
  payRebate,
  recordDelivery,
  refusal,
  updateOrder,
  vestingOf,
  Work,
} from './ieo-steps.ts';
import type { MoneyState } from './money-state.ts';

/**
 * The IEO clock's commands (docs/core.md, "Token launches (IEO)"), stamped
 * by the edge with the tick's time: a sale advanced (`ieoAdvance`: opened,
 * ended, or a commit-mode sale allocated and then distributed a batch a
 * command), the FCFS rebates paid (`ieoPayRebates`), the tranches released
 * (`ieoRelease`).
 */

export function applyIeoAdvance(
  state: MoneyState,
  command: IeoAdvanceCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const sale = Number.isSafeInteger(command.projectId) ? state.ieo.sales.get(command.projectId) : undefined;
  if (!sale) return refusal('ieo.projectNotFound');
  const work = new Work(state, command.at, seq, emit);
  advance(work, sale);
  return work.done(progress(work, sale));
}

/** The answer of a command that advanced a sale: `ieoDistributing` while batches are left to distribute. */
export function progress(work: Work, sale: IeoSale): MoneyResult {
  return sale.state === 'distributing'
    ? { ok: true, transfers: work.transfers, ieoDistributing: true }
    : { ok: true, transfers: work.transfers };
}

/**
 * Whether `ieoAdvance` at `at` would move the sale (the edge's clock sends it
 * only then): `advance` below opens it at its start, closes it at its end, and
 * carries on a commit-mode sale still calculating or distributing.
 */
export function ieoAdvanceDue(sale: IeoSale, at: number): boolean {
  if (sale.state === 'not_open') return at >= sale.terms.startAt;
  if (sale.state === 'open') return at >= sale.terms.endAt;
  return sale.state === 'calculating' || sale.state === 'distributing';
}

/** Whether `ieoPayRebates` would pay anything: a rebate owed on a sale that has ended. */
export function ieoRebatesDue(state: MoneyState): boolean {
  for (const orderId of state.ieo.owed.keys()) if (rebatePayable(state, orderId)) return true;
  return false;
}

/** An owed rebate is paid once its sale has ended (a cancel could refund the payment it comes from until then). */
function rebatePayable(state: MoneyState, orderId: number): boolean {
  const { orders, sales } = state.ieo;
  return sales.get(orders.get(orderId)!.project_id)!.state === 'ended';
}

/** Whether `ieoRelease` at `at` has a tranche to look at: one whose next vesting time has come. */
export function ieoReleasesDue(state: MoneyState, at: number): boolean {
  for (const tranche of state.ieo.tranches.values()) if (trancheDue(state, tranche, at)) return true;
  return false;
}

/** A tranche whose next vesting time has come, of a sale that can no longer be cancelled (IEO_CANCELLABLE_STATES). */
function trancheDue(state: MoneyState, tranche: IeoTrancheMoney, at: number): boolean {
  if (tranche.nextReleaseAt > at) return false;
  const { orders, sales } = state.ieo;
  return !ieoCancellable(sales.get(orders.get(tranche.orderId)!.project_id)!.state);
}

export function applyIeoPayRebates(
  state: MoneyState,
  command: IeoPayRebatesCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const work = new Work(state, command.at, seq, emit);
  const { owed, orders, sales } = state.ieo;
  const transfers: TransferInput[] = [];
  for (const orderId of [...owed.keys()].sort((x, y) => x - y))
    if (rebatePayable(state, orderId))
      transfers.push(payRebate(work, sales.get(orders.get(orderId)!.project_id)!, owed.get(orderId)!));
  work.move(transfers);
  return work.done({ ok: true, transfers: work.transfers });
}

export function applyIeoRelease(
  state: MoneyState,
  command: IeoReleaseCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const work = new Work(state, command.at, seq, emit);
  const { tranches } = state.ieo;
  const due = [...tranches.values()]
    .filter((tranche) => trancheDue(state, tranche, command.at))
    .sort((x, y) => x.orderId - y.orderId || x.seq - y.seq);
  const transfers: TransferInput[] = [];
  for (const tranche of due) {
    const release = ieoReleaseOf(
      { ...tranche, amount: Dec.parse(tranche.amount), released: Dec.parse(tranche.released) },
      command.at,
      tranche.tokenDecimals,
    );
    if (!release) continue;
    const releasedAmount = release.vested.toString();
    work.ops.push({
      op: 'markReleased',
      orderId: tranche.orderId,
      seq: tranche.seq,
      before: tranche.released,
      releasedAmount,
      releasedAt: release.releasedAt,
      nextReleaseAt: release.nextReleaseAt,
    });
    const key = trancheKey(tranche.orderId, tranche.seq);
    if (release.releasedAt !== null) tranches.delete(key);
    else tranches.set(key, { ...tranche, released: releasedAmount, nextReleaseAt: release.nextReleaseAt });
    transfers.push(release.transfer);
  }
  work.move(transfers);
  return work.done({ ok: true, transfers: work.transfers });
}

/**
 * The module's `advance` at the command's `at`, one step of a large sale at a
 * time: the command that closes a commit-mode sale allocates it and leaves it
 * distributing; each later one distributes one batch, the last batch ending
 * the sale. The edge sends `ieoAdvance` again while the result says
 * `ieoDistributing`, so no command pauses the sequencer for a whole sale.
 */
export function advance(work: Work, sale: IeoSale): void {
  const { terms } = sale;
  if (sale.state === 'not_open' && work.at >= terms.startAt) moveState(work, sale, 'open');
  if (sale.state === 'open' && work.at >= terms.endAt)
    moveState(work, sale, terms.mode === 'fcfs' ? 'ended' : 'calculating');
  // Calculating: just closed, or left so by a crash of the module (snapshot 0 from SQL), as is a sale
  // distributing; the state carries on from there, as the module's next tick would.
  if (sale.state === 'calculating') allocate(work, sale);
  else if (sale.state === 'distributing') distributeBatch(work, sale);
}

function commitTerms(terms: IeoSaleTerms) {
  return {
    supply: Dec.parse(terms.total),
    price: Dec.parse(terms.payCoins[0]?.price ?? '0'),
    cap: Dec.parse(terms.maxNumber),
    tokenDecimals: terms.tokenDecimals,
    payDecimals: IEO_PAY_DECIMALS,
  };
}

/** Commit mode, calculating: the allocation of every commitment, recorded with its rounds. */
function allocate(work: Work, sale: IeoSale): void {
  const { orders } = work.state.ieo;
  const { terms } = sale;
  const committed = sale.orderIds.map((id) => Dec.parse(orders.get(id)!.amount));
  const { settled, result } = settleCommits(committed, commitTerms(terms));
  moveState(work, sale, 'distributing');
  work.ops.push({
    op: 'insertAllocation',
    projectId: sale.projectId,
    summary: JSON.stringify(allocationSummaryOf(result, committed)),
    at: work.at,
  });
  let sold = Dec.ZERO;
  const gift = Dec.parse(terms.gift);
  sale.orderIds.forEach((id, index) => {
    const outcome = settled[index];
    if (!outcome) return;
    sold = sold.add(outcome.tokens);
    updateOrder(work, orders.get(id)!, {
      tokens: outcome.tokens.toString(),
      gift: ieoGiftOf(outcome.tokens, gift, terms.tokenDecimals).toString(),
      spent: outcome.spent.toString(),
      refund: outcome.refund.toString(),
      served_round: result.servedInRound[index] ?? null,
    });
  });
  sale.sold = sold.toString();
  work.ops.push({ op: 'updateProject', id: sale.projectId, set: { sold: sale.sold } });
}

/**
 * Commit mode, distributing, one module batch (`IEO_DISTRIBUTE_BATCH`
 * orders, oldest first): each order's spent part posted from its holds, the
 * rest voided, its tokens delivered locked, its rebate paid from the
 * proceeds, the rebates last in the batch. The sale ends when no committed
 * order is left. The distributed orders come first in `orderIds`, so the
 * scan stops after the batch.
 */
function distributeBatch(work: Work, sale: IeoSale): void {
  const { orders } = work.state.ieo;
  const { holds } = work.state.ledger;
  const batch: IeoOrderRecord[] = [];
  let more = false;
  for (const id of sale.orderIds) {
    const order = orders.get(id)!;
    if (order.state !== 'committed') continue;
    if (batch.length === IEO_DISTRIBUTE_BATCH) {
      more = true;
      break;
    }
    batch.push(order);
  }
  const transfers: TransferInput[] = [];
  const rebates: TransferInput[] = [];
  for (const order of batch) {
    const held = Array.from(
      { length: order.holds },
      (_, index) => holds.get(ieoCommitHoldId(order.id, index + 1))?.remaining ?? Dec.ZERO,
    );
    const spent = Dec.parse(order.spent);
    transfers.push(...ieoSettlementTransfers(order.id, held, spent));
    const delivered = Dec.parse(order.tokens).add(Dec.parse(order.gift));
    transfers.push(
      ...ieoDeliveryTransfers(vestingOf(sale), { orderId: order.id, userId: order.user_id }, delivered),
    );
    rebates.push(...recordDelivery(work, sale, order, delivered, spent, true));
    updateOrder(work, order, { state: 'allocated' });
  }
  work.move([...transfers, ...rebates]);
  if (!more) moveState(work, sale, 'ended');
}
