import type { IeoSaleTerms } from './ieo-rules.ts';

/**
 * Token launches in the money state (docs/core.md, "IEO and fiat escrow in
 * the state"): a sale's terms, its orders and the FCFS rebates still owed,
 * with modules/ieo's rules (ieo-rules.ts, ieo-allocation.ts) so both write
 * the same rows and transfers. The edge stamps what the clock decides: a
 * command's `at` is when the module's clock would have read it.
 *
 * This file holds what the state keeps and the commands' shapes, and the
 * snapshot's encoding of it. The commands are applied in ieo-sale.ts (the
 * operator's and the users': a sale's terms, a subscription, a cancel) and
 * ieo-clock.ts (the clock's: advance, rebates, releases), from the steps
 * both share (ieo-steps.ts).
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
  /** Linear vesting: released continuously until then (null: all at release_at). */
  until: number | null;
  amount: string;
  released_amount: string;
  /** When the scheduler next has something to release: release_at, then each linear step. */
  next_release_at: number;
  /** When it was released in full. */
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
  /** The ledger transfer that paid it (migration 037). */
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
  /** The row's state: `not_open`, `open`, `distributing` (between the clock's batches), `ended`, `cancelled` (calculating passes within one command). */
  state: string;
  sold: string;
  /** Its orders' ids, oldest first. */
  orderIds: number[];
}

/** An FCFS rebate owed until its sale ends. */
export interface OwedRebate {
  orderId: number;
  inviterId: number;
  amount: string;
}

/** A tranche not yet released in full: its schedule, what it released, when it next vests more. */
export interface IeoTrancheMoney {
  orderId: number;
  seq: number;
  releaseAt: number;
  until: number | null;
  amount: string;
  released: string;
  nextReleaseAt: number;
  tokenDecimals: number;
}

export const trancheKey = (orderId: number, seq: number) => `${orderId}:${seq}`;

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

export function noteUserOrder(state: IeoState, order: IeoOrderRecord): void {
  let users = state.byUser.get(order.project_id);
  if (!users) {
    users = new Map();
    state.byUser.set(order.project_id, users);
  }
  const mine = users.get(order.user_id);
  if (mine) mine.push(order.id);
  else users.set(order.user_id, [order.id]);
}
