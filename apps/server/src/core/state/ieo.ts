import { Dec } from '@halyard/money';
import { checkIeoSubscription, IEO_PAY_DECIMALS, type RuleError } from '@halyard/rules';
import { LEDGER_ERRORS, type TransferInput, userAccount } from '../../ledger/index.ts';
import { isLedgerRefusal } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import { allocationSummaryOf, settleCommits } from './ieo-allocation.ts';
import {
  IEO_DISTRIBUTE_BATCH,
  type IeoSaleTerms,
  type IeoVestingOf,
  ieoAnonIdOf,
  ieoCommitHold,
  ieoCommitHoldId,
  ieoDeliveryTransfers,
  ieoFundingOf,
  ieoFundTransfer,
  ieoGiftOf,
  ieoPayTransfer,
  ieoPurchaseOf,
  ieoRebateOf,
  ieoRebateTransfer,
  ieoRefundTransfers,
  ieoReleaseOf,
  ieoSettlementTransfers,
  ieoTranchesOf,
} from './ieo-rules.ts';
import { applyTransfers, available, type MoneyState, tryApplyTransfers } from './money-state.ts';
import { referralUserOf } from './referral.ts';
import { type CommissionRow, promotionRebateRow } from './referral-rules.ts';

/**
 * Token launches in the money state (docs/core.md, "IEO and fiat escrow in
 * the state"): a sale's terms, its orders and the FCFS rebates still owed,
 * with modules/ieo's rules (ieo-rules.ts, ieo-allocation.ts) so both write
 * the same rows and transfers. The edge stamps what the clock decides: a
 * command's `at` is when the module's clock would have read it.
 *
 * Over 500 lines because the five commands share their steps (an order made,
 * a delivery recorded, a rebate paid, the clock's advance, a cancel), which
 * read best beside the command types and row records they fill in; the pure
 * rules are already apart (ieo-rules.ts, ieo-allocation.ts).
 */

interface CommandBase {
  id?: string;
  at: number;
}

/**
 * A sale's terms, sent when the operator creates or edits it. The edge first
 * checks the terms (checkIeoProjectTerms), inserts or updates the project row
 * (texts, KYC level, regions: none of it moves money) and draws its salt at
 * creation; before an edit it sends `ieoAdvance`, as the module advances first.
 * The state funds the project's account (a new sale), replaces the funding
 * (a sale not yet open), or cancels an open sale, as editProject does, then
 * brings the sale to what `at` says.
 */
export interface IeoSaleCommand extends CommandBase {
  kind: 'ieoSale';
  projectId: number;
  terms: IeoSaleTerms;
  salt: string;
  /** The funding transfer's suffix (`create` at creation, a uuid at an edit) and the edit's defunding's (a uuid). */
  fundWhy: string;
  defundWhy: string;
}

/**
 * A subscription (`/ieo/addIeoOrder`): FCFS pays and receives locked tokens,
 * commit mode holds the amount. The edge checks the user may subscribe
 * (frozen, KYC, region); the inviter who earns the rebate is the referral
 * profile's (`referralUser`).
 */
export interface IeoSubscribeCommand extends CommandBase {
  kind: 'ieoSubscribe';
  userId: number;
  projectId: number;
  paycoin: string;
  /** Pay coin offered, as typed. */
  amount: string;
}

/**
 * The IEO clock on one sale, as the module's `advance`: opens it at its
 * start; at its end, ends an FCFS sale, or allocates a commit-mode sale and
 * distributes it (tokens out, the rest refunded, rebates paid from the
 * proceeds) in the module's batches.
 */
export interface IeoAdvanceCommand extends CommandBase {
  kind: 'ieoAdvance';
  projectId: number;
}

/**
 * The IEO clock's rebates, as the module's `payOwedRebates` after it advanced
 * the sales: every FCFS rebate owed on a sale that has ended, oldest order
 * first, paid from the sale's proceeds to the inviter's spot wallet.
 */
export interface IeoPayRebatesCommand extends CommandBase {
  kind: 'ieoPayRebates';
}

/**
 * The IEO clock's releases, as the module's `releaseDue`: every tranche not
 * released in full whose next vesting time has come posts what has vested
 * since its last release, oldest order first.
 */
export interface IeoReleaseCommand extends CommandBase {
  kind: 'ieoRelease';
}

/** The operator cancels a sale not yet allocated: every payment and commitment refunded. */
export interface IeoCancelSaleCommand extends CommandBase {
  kind: 'ieoCancelSale';
  projectId: number;
}

export type IeoCommand =
  | IeoSaleCommand
  | IeoSubscribeCommand
  | IeoAdvanceCommand
  | IeoPayRebatesCommand
  | IeoReleaseCommand
  | IeoCancelSaleCommand;

/** An `ieo_orders` row (amounts as decimal text). */
export interface IeoOrderRecord {
  id: number;
  project_id: number;
  user_id: number;
  paycoin: string;
  price: string;
  amount: string;
  holds: number;
  spent: string;
  refund: string;
  tokens: string;
  gift: string;
  /** `paid` (FCFS), `committed`, `allocated`, `cancelled`. */
  state: string;
  anon_id: string;
  served_round: number | null;
  created_at: number;
}

/** An `ieo_tranches` row. */
export interface IeoTrancheRecord {
  order_id: number;
  seq: number;
  user_id: number;
  coin: string;
  release_at: number;
  until: number | null;
  amount: string;
  released_amount: string;
  next_release_at: number;
  released_at: number | null;
}

/** An `ieo_rebates` row. */
export interface IeoRebateRecord {
  order_id: number;
  inviter_id: number;
  coin: string;
  amount: string;
  state: string;
  created_at: number;
  paid_by: string | null;
  paid_at: number | null;
}

/**
 * What modules/ieo/projection.ts writes, in the order the module writes it,
 * each with the store function of the same name's job.
 */
export type IeoRowOp =
  | { op: 'insertOrder'; row: IeoOrderRecord }
  | { op: 'updateOrder'; id: number; set: Partial<Omit<IeoOrderRecord, 'id'>> }
  | { op: 'updateProject'; id: number; set: { state?: string; sold?: string; updated_at?: number } }
  | { op: 'addCommit'; projectId: number; paycoin: string; amount: string; participant: boolean }
  | { op: 'insertTranches'; rows: IeoTrancheRecord[] }
  | { op: 'deleteUnreleasedTranches'; orderId: number }
  | { op: 'insertRebate'; row: IeoRebateRecord }
  | { op: 'markRebatePaid'; orderId: number; transferId: string; at: number }
  | { op: 'cancelOwedRebates'; orderIds: number[] }
  | {
      op: 'markReleased';
      orderId: number;
      seq: number;
      before: string;
      releasedAmount: string;
      releasedAt: number | null;
      nextReleaseAt: number;
    }
  | { op: 'insertAllocation'; projectId: number; summary: string; at: number };

/** A sale as the state keeps it: its terms, the row's state and sold count, its orders. */
export interface IeoSale {
  projectId: number;
  terms: IeoSaleTerms;
  salt: string;
  /** The row's state: `not_open`, `open`, `ended`, `cancelled` (calculating and distributing pass within one command). */
  state: string;
  sold: string;
  /** Its orders' ids, oldest first. */
  orderIds: number[];
}

/** An FCFS rebate owed until its sale ends. */
interface OwedRebate {
  orderId: number;
  inviterId: number;
  amount: string;
}

/** A tranche not yet released in full: its schedule, what it released, when it next vests more. */
interface IeoTrancheMoney {
  orderId: number;
  seq: number;
  releaseAt: number;
  until: number | null;
  amount: string;
  released: string;
  nextReleaseAt: number;
  tokenDecimals: number;
}

const trancheKey = (orderId: number, seq: number) => `${orderId}:${seq}`;

/** Grows with the sales' orders: all in the snapshot header for now (docs/core.md). */
export interface IeoState {
  nextOrderId: number;
  sales: Map<number, IeoSale>;
  orders: Map<number, IeoOrderRecord>;
  /** Per sale, each user's orders (rebuilt from `orders` at a load). */
  byUser: Map<number, Map<number, number[]>>;
  /** By order id. */
  owed: Map<number, OwedRebate>;
  /** The tranches still locked (in part), by `<order>:<seq>`. */
  tranches: Map<string, IeoTrancheMoney>;
}

export function createIeoState(): IeoState {
  return {
    nextOrderId: 1,
    sales: new Map(),
    orders: new Map(),
    byUser: new Map(),
    owed: new Map(),
    tranches: new Map(),
  };
}

export interface IeoSnapshot {
  nextOrderId: number;
  sales: IeoSale[];
  orders: IeoOrderRecord[];
  owed: OwedRebate[];
  tranches: IeoTrancheMoney[];
}

export function encodeIeo(state: IeoState): IeoSnapshot {
  return {
    nextOrderId: state.nextOrderId,
    sales: [...state.sales.values()],
    orders: [...state.orders.values()],
    owed: [...state.owed.values()],
    tranches: [...state.tranches.values()],
  };
}

export function decodeIeo(snapshot: IeoSnapshot | undefined): IeoState {
  const state = createIeoState();
  if (!snapshot) return state;
  state.nextOrderId = snapshot.nextOrderId;
  for (const sale of snapshot.sales) state.sales.set(sale.projectId, sale);
  for (const order of snapshot.orders) {
    state.orders.set(order.id, order);
    noteUserOrder(state, order);
  }
  for (const owed of snapshot.owed) state.owed.set(owed.orderId, owed);
  for (const tranche of snapshot.tranches)
    state.tranches.set(trancheKey(tranche.orderId, tranche.seq), tranche);
  return state;
}

function noteUserOrder(state: IeoState, order: IeoOrderRecord): void {
  let users = state.byUser.get(order.project_id);
  if (!users) {
    users = new Map();
    state.byUser.set(order.project_id, users);
  }
  const mine = users.get(order.user_id);
  if (mine) mine.push(order.id);
  else users.set(order.user_id, [order.id]);
}

type Outcome = Applied<MoneyResult, MoneyEvent>;

/** What one command did: its transfers (applied already), rows and commission rows, published in that order. */
class Work {
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

function refusal(key: string, params?: Record<string, string | number>): Outcome {
  return {
    result: params === undefined ? { ok: false, error: key } : { ok: false, error: key, params },
    events: [],
  };
}

function ruleRefusal(error: RuleError): Outcome {
  return refusal(error.key, error.params);
}

const isText = (value: unknown): value is string => typeof value === 'string';

function fundingOf(terms: IeoSaleTerms): Dec {
  return ieoFundingOf(Dec.parse(terms.total), Dec.parse(terms.gift), terms.tokenDecimals);
}

function vestingOf(sale: IeoSale): IeoVestingOf {
  const { terms } = sale;
  return {
    projectId: sale.projectId,
    coin: terms.coin,
    tokenDecimals: terms.tokenDecimals,
    vesting: terms.vesting,
    endAt: terms.endAt,
  };
}

/** A malformed command: refused as a value (the edge builds them from checked input). */
function badSaleTerms(terms: IeoSaleTerms | undefined): boolean {
  if (!terms || typeof terms !== 'object') return true;
  if (!isText(terms.coin) || !Number.isSafeInteger(terms.startAt) || !Number.isSafeInteger(terms.endAt))
    return true;
  if (!Number.isInteger(terms.tokenDecimals) || terms.tokenDecimals < 0 || terms.tokenDecimals > 18)
    return true;
  if (terms.mode !== 'fcfs' && terms.mode !== 'commit') return true;
  if (!Array.isArray(terms.payCoins) || terms.payCoins.length === 0) return true;
  for (const text of [terms.total, terms.minNumber, terms.maxNumber, terms.gift, terms.rebate])
    if (!isText(text) || Dec.tryParse(text) === null) return true;
  for (const pay of terms.payCoins)
    if (!isText(pay.paycoin) || !isText(pay.price) || !Dec.tryParse(pay.price)?.isPositive()) return true;
  return !terms.vesting || typeof terms.vesting !== 'object';
}

// ── the commands ─────────────────────────────────────────────────────────

export function applyIeoSale(
  state: MoneyState,
  command: IeoSaleCommand,
  seq: number,
  emit: boolean,
): Outcome {
  if (!Number.isSafeInteger(command.projectId) || badSaleTerms(command.terms)) return malformed();
  if (!isText(command.salt) || !isText(command.fundWhy) || !isText(command.defundWhy)) return malformed();
  const work = new Work(state, command.at, seq, emit);
  const { ieo } = state;
  const current = ieo.sales.get(command.projectId);
  const project = { id: command.projectId, coin: command.terms.coin };
  if (!current) {
    const sale: IeoSale = {
      projectId: command.projectId,
      terms: command.terms,
      salt: command.salt,
      state: 'not_open',
      sold: '0',
      orderIds: [],
    };
    const refused = work.tryMove([
      ieoFundTransfer(project, fundingOf(command.terms), command.fundWhy, 'fund'),
    ]);
    if (refused) return refused;
    ieo.sales.set(sale.projectId, sale);
    advance(work, sale);
    return work.done({ ok: true, transfers: work.transfers });
  }
  // An open sale's terms are frozen: an edit cancels it and refunds everyone.
  if (current.state === 'open') {
    cancel(work, current);
    return work.done({ ok: true, transfers: work.transfers, ieoCancelled: true });
  }
  if (current.state !== 'not_open') return refusal('ieo.termsFrozen');
  const old = { id: current.projectId, coin: current.terms.coin };
  const refused = work.tryMove([
    ieoFundTransfer(old, fundingOf(current.terms).sub(Dec.parse(current.sold)), command.defundWhy, 'defund'),
    ieoFundTransfer(project, fundingOf(command.terms), command.fundWhy, 'fund'),
  ]);
  if (refused) return refused;
  current.terms = command.terms;
  advance(work, current);
  return work.done({ ok: true, transfers: work.transfers });
}

export function applyIeoCancelSale(
  state: MoneyState,
  command: IeoCancelSaleCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const sale = Number.isSafeInteger(command.projectId) ? state.ieo.sales.get(command.projectId) : undefined;
  if (!sale) return refusal('ieo.projectNotFound');
  if (sale.state !== 'not_open' && sale.state !== 'open') return refusal('ieo.termsFrozen');
  const work = new Work(state, command.at, seq, emit);
  cancel(work, sale);
  return work.done({ ok: true, transfers: work.transfers });
}

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
  return work.done({ ok: true, transfers: work.transfers });
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
  for (const orderId of [...owed.keys()].sort((x, y) => x - y)) {
    const sale = sales.get(orders.get(orderId)!.project_id)!;
    if (sale.state === 'ended') transfers.push(payRebate(work, sale, owed.get(orderId)!));
  }
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
    .filter((tranche) => tranche.nextReleaseAt <= command.at)
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

export function applyIeoSubscribe(
  state: MoneyState,
  command: IeoSubscribeCommand,
  seq: number,
  emit: boolean,
): Outcome {
  if (!Number.isSafeInteger(command.userId) || !isText(command.paycoin) || !isText(command.amount))
    return malformed();
  const sale = Number.isSafeInteger(command.projectId) ? state.ieo.sales.get(command.projectId) : undefined;
  if (!sale) return refusal('ieo.projectNotFound');
  const { terms } = sale;
  const pay = terms.payCoins.find((candidate) => candidate.paycoin === command.paycoin);
  if (!pay) return refusal('ieo.payCoinNotAccepted', { coin: command.paycoin });
  const { at, userId } = command;
  if (sale.state === 'cancelled') return refusal('ieo.projectCancelled');
  if (at < terms.startAt) return refusal('ieo.notOpen');
  if (at >= terms.endAt || (sale.state !== 'open' && sale.state !== 'not_open')) return refusal('ieo.ended');
  const mine = state.ieo.byUser.get(sale.projectId)?.get(userId) ?? [];
  const bought = Dec.sum(mine.map((id) => Dec.parse(state.ieo.orders.get(id)!.tokens)));
  const error = checkIeoSubscription({
    amount: command.amount,
    price: pay.price,
    tokenDecimals: terms.tokenDecimals,
    usable: available(state, userAccount(userId, 'spot'), pay.paycoin).toString(),
    minNumber: terms.minNumber,
    maxNumber: terms.maxNumber,
    remaining: terms.mode === 'fcfs' ? Dec.parse(terms.total).sub(Dec.parse(sale.sold)).toString() : null,
    bought: bought.toString(),
  });
  if (error) return ruleRefusal(error);
  const work = new Work(state, at, seq, emit);
  const amount = Dec.parse(command.amount);
  const order =
    terms.mode === 'fcfs'
      ? buy(work, sale, userId, pay, amount)
      : commit(work, sale, mine[0] ?? null, userId, pay, amount);
  if (typeof order !== 'number') return order;
  return work.done({ ok: true, transfers: work.transfers, ieoOrderId: order });
}

function malformed(): Outcome {
  return refusal('ledger.invalidTransfer', { field: 'command' });
}

// ── the steps ────────────────────────────────────────────────────────────

function newOrder(
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

function updateOrder(work: Work, order: IeoOrderRecord, set: Partial<Omit<IeoOrderRecord, 'id'>>): void {
  Object.assign(order, set);
  work.ops.push({ op: 'updateOrder', id: order.id, set });
}

/** FCFS: pay, receive locked tokens at once; the inviter's rebate owed until the sale ends. */
function buy(
  work: Work,
  sale: IeoSale,
  userId: number,
  pay: { paycoin: string; price: string },
  amount: Dec,
): number | Outcome {
  const { terms } = sale;
  const price = Dec.parse(pay.price);
  const { tokens, cost, gift } = ieoPurchaseOf(amount, price, Dec.parse(terms.gift), terms.tokenDecimals);
  // The transfers first, named after the order's id to come: a refusal changes nothing.
  const who = { orderId: work.state.ieo.nextOrderId, userId, projectId: sale.projectId };
  const delivered = tokens.add(gift);
  const refused = work.tryMove([
    ieoPayTransfer(who, pay.paycoin, cost),
    ...ieoDeliveryTransfers(vestingOf(sale), who, delivered),
  ]);
  if (refused) return refused;
  const order = newOrder(work, sale, userId, {
    paycoin: pay.paycoin,
    price: price.toString(),
    amount: cost.toString(),
    spent: cost.toString(),
    tokens: tokens.toString(),
    gift: gift.toString(),
    state: 'paid',
  });
  recordDelivery(work, sale, order, delivered, cost, false);
  sale.sold = Dec.parse(sale.sold).add(tokens).toString();
  work.ops.push({ op: 'updateProject', id: sale.projectId, set: { sold: sale.sold } });
  return order.id;
}

/** Commit mode: one order per user and sale, each commitment a further hold. */
function commit(
  work: Work,
  sale: IeoSale,
  existingId: number | null,
  userId: number,
  pay: { paycoin: string; price: string },
  amount: Dec,
): number | Outcome {
  const existing = existingId === null ? undefined : work.state.ieo.orders.get(existingId);
  const holds = (existing?.holds ?? 0) + 1;
  const who = { orderId: existing?.id ?? work.state.ieo.nextOrderId, userId, projectId: sale.projectId };
  const refused = work.tryMove([ieoCommitHold(who, holds, pay.paycoin, amount)]);
  if (refused) return refused;
  const order =
    existing ??
    newOrder(work, sale, userId, {
      paycoin: pay.paycoin,
      price: Dec.parse(pay.price).toString(),
      amount: '0',
      spent: '0',
      tokens: '0',
      gift: '0',
      state: 'committed',
    });
  updateOrder(work, order, { amount: Dec.parse(order.amount).add(amount).toString(), holds });
  work.ops.push({
    op: 'addCommit',
    projectId: sale.projectId,
    paycoin: pay.paycoin,
    amount: amount.toString(),
    participant: existing === undefined,
  });
  return order.id;
}

/**
 * The tranche rows of a delivery and the inviter's rebate: owed (FCFS), or
 * paid now (`payNow`: a commit-mode sale being distributed) and answered as
 * its transfer, to be moved after the payments it comes from.
 */
function recordDelivery(
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
function payRebate(work: Work, sale: IeoSale, owed: OwedRebate): TransferInput {
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
      paid: Dec.parse(order.spent).toString(),
      rate: Dec.parse(sale.terms.rebate).toString(),
      amount: Dec.parse(owed.amount).toString(),
      time: work.at,
    }),
  );
  return transfer;
}

function moveState(work: Work, sale: IeoSale, to: string): void {
  sale.state = to;
  work.ops.push({ op: 'updateProject', id: sale.projectId, set: { state: to, updated_at: work.at } });
}

/** The module's `advance` at the command's `at`. */
function advance(work: Work, sale: IeoSale): void {
  const { terms } = sale;
  if (sale.state === 'not_open' && work.at >= terms.startAt) moveState(work, sale, 'open');
  if (sale.state === 'open' && work.at >= terms.endAt) {
    if (terms.mode === 'fcfs') moveState(work, sale, 'ended');
    else {
      moveState(work, sale, 'calculating');
      allocate(work, sale);
      distribute(work, sale);
    }
  }
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
 * Commit mode, distributing: each order's spent part posted from its holds,
 * the rest voided, its tokens delivered locked, its rebate paid from the
 * proceeds; a ledger batch per module batch, the rebates last in each.
 */
function distribute(work: Work, sale: IeoSale): void {
  const { orders } = work.state.ieo;
  const { holds } = work.state.ledger;
  const committed = sale.orderIds.map((id) => orders.get(id)!).filter((order) => order.state === 'committed');
  for (let start = 0; start < committed.length; start += IEO_DISTRIBUTE_BATCH) {
    const transfers: TransferInput[] = [];
    const rebates: TransferInput[] = [];
    for (const order of committed.slice(start, start + IEO_DISTRIBUTE_BATCH)) {
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
  }
  moveState(work, sale, 'ended');
}

/** A cancel: every order refunded, the sale's tokens back to the treasury (the module's cancelProject). */
function cancel(work: Work, sale: IeoSale): void {
  const { orders, owed } = work.state.ieo;
  const project = { id: sale.projectId, coin: sale.terms.coin };
  const transfers: TransferInput[] = [];
  const mine = sale.orderIds.map((id) => orders.get(id)!);
  for (const order of mine) {
    const delivered = Dec.parse(order.tokens).add(Dec.parse(order.gift));
    transfers.push(
      ...ieoRefundTransfers(project, {
        orderId: order.id,
        userId: order.user_id,
        paycoin: order.paycoin,
        amount: Dec.parse(order.amount),
        state: order.state,
        holds: order.holds,
        delivered,
        trancheSeqs: ieoTranchesOf(vestingOf(sale), delivered).map((tranche) => tranche.seq),
      }),
    );
  }
  for (const order of mine) {
    for (const [key, tranche] of work.state.ieo.tranches)
      if (tranche.orderId === order.id) work.state.ieo.tranches.delete(key);
    work.ops.push({ op: 'deleteUnreleasedTranches', orderId: order.id });
    updateOrder(work, order, {
      state: 'cancelled',
      refund: order.amount,
      spent: '0',
      tokens: '0',
      gift: '0',
    });
    owed.delete(order.id);
  }
  work.ops.push({ op: 'cancelOwedRebates', orderIds: mine.map((order) => order.id) });
  transfers.push(ieoFundTransfer(project, fundingOf(sale.terms), 'cancel', 'defund'));
  work.move(transfers);
  sale.state = 'cancelled';
  sale.sold = '0';
  work.ops.push({
    op: 'updateProject',
    id: sale.projectId,
    set: { state: 'cancelled', sold: '0', updated_at: work.at },
  });
}
