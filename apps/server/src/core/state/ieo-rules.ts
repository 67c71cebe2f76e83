import { createHash } from 'node:crypto';
import { Dec } from '@halyard/money';
import type { IeoMode, IeoPayCoin, IeoVesting } from '@halyard/protocol';
import {
  IEO_PAY_DECIMALS,
  ieoCostOf,
  ieoNextVestingAt,
  ieoTokensFor,
  ieoVestedOf,
  planIeoTranches,
} from '@halyard/rules';
import { ieoProjectWallet, systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';

/**
 * A token launch's money rules (spec §7 IEO, issue 15): the transfers, ids
 * and amounts modules/ieo and the money state (ieo.ts) both build, so both
 * write the same ledger by construction. Pure: no clock, no I/O.
 */

/** Commit-mode orders settled per ledger batch (the module's transaction; the state's batch, same order). */
export const IEO_DISTRIBUTE_BATCH = 500;

/** The money terms of a sale, as the project row holds them (amounts as decimal text). */
export interface IeoSaleTerms {
  coin: string;
  mode: IeoMode;
  total: string;
  tokenDecimals: number;
  payCoins: IeoPayCoin[];
  minNumber: string;
  maxNumber: string;
  gift: string;
  rebate: string;
  vesting: IeoVesting;
  startAt: number;
  endAt: number;
}

/**
 * The states in which a sale can still be cancelled. A cancel takes every
 * delivered token back, so no tranche is released before the sale leaves
 * them: released tokens are the user's to spend.
 */
export const IEO_CANCELLABLE_STATES = ['not_open', 'open'] as const;
export const ieoCancellable = (state: string) =>
  (IEO_CANCELLABLE_STATES as readonly string[]).includes(state);

export const ieoProjectAccount = (projectId: number) => systemAccount(ieoProjectWallet(projectId));
export const ieoTrancheHoldId = (orderId: number, seq: number) => `ieo:tranche:${orderId}:${seq}`;
export const ieoCommitHoldId = (orderId: number, n: number) => `ieo:commit:${orderId}:${n}`;
const orderReference = (orderId: number) => `ieo:order:${orderId}`;

/** Public id of a commitment: unlinkable to the user without the project's secret salt. */
export function ieoAnonIdOf(salt: string, userId: number): string {
  return createHash('sha256').update(`${salt}:${userId}`).digest('hex').slice(0, 16);
}

/** The gift on `tokens`, floored to the token's unit. */
export function ieoGiftOf(tokens: Dec, gift: Dec, tokenDecimals: number): Dec {
  return tokens.mul(gift).floorTo(tokenDecimals);
}

/** What the project's treasury is funded with: the supply and the most the gift rule can give on it. */
export function ieoFundingOf(total: Dec, gift: Dec, tokenDecimals: number): Dec {
  return total.add(ieoGiftOf(total, gift, tokenDecimals));
}

/** The promotion rebate on what an order spent, floored to the pay coin's unit. */
export function ieoRebateOf(spent: Dec, rate: Dec): Dec {
  return spent.mul(rate).floorTo(IEO_PAY_DECIMALS);
}

/** An FCFS purchase: the tokens `amount` buys, what they cost, and the gift on them. */
export function ieoPurchaseOf(
  amount: Dec,
  price: Dec,
  gift: Dec,
  tokenDecimals: number,
): { tokens: Dec; cost: Dec; gift: Dec } {
  const tokens = ieoTokensFor(amount, price, tokenDecimals);
  return { tokens, cost: ieoCostOf(tokens, price), gift: ieoGiftOf(tokens, gift, tokenDecimals) };
}

/** The project's supply (and gift reserve) from the exchange treasury (`why` makes the id unique), or back (`defund`). */
export function ieoFundTransfer(
  project: { id: number; coin: string },
  amount: Dec,
  why: string,
  direction: 'fund' | 'defund',
): TransferInput {
  const treasury = systemAccount('treasury');
  const account = ieoProjectAccount(project.id);
  return {
    id: `ieo:${project.id}:${direction}:${why}`,
    code: 'ieo_fund',
    reference: `ieo:${project.id}`,
    debit: direction === 'fund' ? treasury : account,
    credit: direction === 'fund' ? account : treasury,
    asset: project.coin,
    amount,
  };
}

/** An FCFS payment, from the user's spot wallet to the project's account. */
export function ieoPayTransfer(
  order: { orderId: number; userId: number; projectId: number },
  paycoin: string,
  cost: Dec,
): TransferInput {
  const reference = orderReference(order.orderId);
  return {
    id: `${reference}:pay`,
    code: 'ieo_pay',
    reference,
    debit: userAccount(order.userId, 'spot'),
    credit: ieoProjectAccount(order.projectId),
    asset: paycoin,
    amount: cost,
  };
}

/** A commitment: the `n`th hold of the order, from the user's spot wallet to the project's account. */
export function ieoCommitHold(
  order: { orderId: number; userId: number; projectId: number },
  n: number,
  paycoin: string,
  amount: Dec,
): TransferInput {
  return {
    id: ieoCommitHoldId(order.orderId, n),
    type: 'pending',
    code: 'ieo_commit',
    reference: orderReference(order.orderId),
    debit: userAccount(order.userId, 'spot'),
    credit: ieoProjectAccount(order.projectId),
    asset: paycoin,
    amount,
  };
}

/** Where a sale's tokens vest: the token, its unit, the schedule and the window's end it starts from. */
export interface IeoVestingOf {
  projectId: number;
  coin: string;
  tokenDecimals: number;
  vesting: IeoVesting;
  endAt: number;
}

/** The tranches a delivery is locked in (planIeoTranches from the window's end). */
export function ieoTranchesOf(sale: IeoVestingOf, delivered: Dec) {
  return planIeoTranches(delivered, sale.vesting, sale.endAt, sale.tokenDecimals);
}

/** Tokens from the project's treasury into the user's IEO wallet, each tranche held there until it vests. */
export function ieoDeliveryTransfers(
  sale: IeoVestingOf,
  order: { orderId: number; userId: number },
  delivered: Dec,
): TransferInput[] {
  if (!delivered.isPositive()) return [];
  const { orderId, userId } = order;
  const reference = orderReference(orderId);
  return [
    {
      id: `${reference}:deliver`,
      code: 'ieo_deliver',
      reference,
      debit: ieoProjectAccount(sale.projectId),
      credit: userAccount(userId, 'ieo'),
      asset: sale.coin,
      amount: delivered,
    },
    ...ieoTranchesOf(sale, delivered).map((tranche) => ({
      id: ieoTrancheHoldId(orderId, tranche.seq),
      type: 'pending' as const,
      code: 'ieo_lock',
      reference,
      debit: userAccount(userId, 'ieo'),
      credit: userAccount(userId, 'spot'),
      asset: sale.coin,
      amount: tranche.amount,
    })),
  ];
}

/**
 * Posts what an order spent from its commitment holds, in order, and voids
 * what each still holds beyond that. `held`: what each hold (1..n) still
 * reserves.
 */
export function ieoSettlementTransfers(orderId: number, held: readonly Dec[], spent: Dec): TransferInput[] {
  const transfers: TransferInput[] = [];
  let toPost = spent;
  held.forEach((reserved, index) => {
    const post = Dec.min(reserved, toPost);
    toPost = toPost.sub(post);
    const base = { pendingId: ieoCommitHoldId(orderId, index + 1), reference: orderReference(orderId) };
    if (post.isPositive())
      transfers.push({
        ...base,
        id: `${base.pendingId}:post`,
        type: 'post_pending',
        amount: post,
        code: 'ieo_pay',
      });
    if (reserved.gt(post))
      transfers.push({ ...base, id: `${base.pendingId}:void`, type: 'void_pending', code: 'ieo_refund' });
  });
  return transfers;
}

/** A promotion rebate, from the project's proceeds to the inviter's spot wallet; its id is the order's. */
export function ieoRebateTransfer(
  who: { orderId: number; projectId: number; inviterId: number; coin: string },
  amount: Dec,
): TransferInput {
  const reference = orderReference(who.orderId);
  return {
    id: `${reference}:rebate`,
    code: 'ieo_rebate',
    reference,
    debit: ieoProjectAccount(who.projectId),
    credit: userAccount(who.inviterId, 'spot'),
    asset: who.coin,
    amount,
  };
}

/** A tranche as a release reads it: its schedule and what it has released so far. */
export interface IeoReleasable {
  orderId: number;
  seq: number;
  releaseAt: number;
  until: number | null;
  amount: Dec;
  released: Dec;
}

/**
 * A tranche's release at `now`, up to what has vested (ieoVestedOf, floored;
 * the last release takes the remainder), or null when nothing more is due:
 * the total released after it, when it is whole, when it next vests more,
 * and the transfer, named by that total, so each release has its own id.
 */
export function ieoReleaseOf(
  tranche: IeoReleasable,
  now: number,
  tokenDecimals: number,
): { vested: Dec; releasedAt: number | null; nextReleaseAt: number; transfer: TransferInput } | null {
  const schedule = { releaseAt: tranche.releaseAt, until: tranche.until, amount: tranche.amount };
  const vested = ieoVestedOf(schedule, now, tokenDecimals);
  if (!vested.gt(tranche.released)) return null;
  const { orderId, seq } = tranche;
  return {
    vested,
    releasedAt: vested.eq(tranche.amount) ? now : null,
    nextReleaseAt: ieoNextVestingAt(schedule, now),
    transfer: {
      id: `${ieoTrancheHoldId(orderId, seq)}:release:${vested.toString()}`,
      type: 'post_pending',
      pendingId: ieoTrancheHoldId(orderId, seq),
      amount: vested.sub(tranche.released),
      code: 'ieo_release',
      reference: orderReference(orderId),
    },
  };
}

/** An order as a cancel refunds it. */
export interface IeoRefundedOrder {
  orderId: number;
  userId: number;
  paycoin: string;
  /** Committed or paid. */
  amount: Dec;
  state: string;
  /** Commit mode: how many holds it made. */
  holds: number;
  /** Paid: tokens and gift delivered, and the seqs of its tranches (unreleased). */
  delivered: Dec;
  trancheSeqs: readonly number[];
}

/**
 * A cancelled sale's refund of one order: a commitment's holds voided; a
 * paid order's tranche holds voided, its tokens back to the project and its
 * payment back to the user's spot wallet.
 */
export function ieoRefundTransfers(
  project: { id: number; coin: string },
  order: IeoRefundedOrder,
): TransferInput[] {
  const { orderId } = order;
  const reference = orderReference(orderId);
  if (order.state === 'committed') {
    return Array.from({ length: order.holds }, (_, index) => ({
      id: `${ieoCommitHoldId(orderId, index + 1)}:cancel`,
      type: 'void_pending' as const,
      pendingId: ieoCommitHoldId(orderId, index + 1),
      code: 'ieo_cancel',
      reference,
    }));
  }
  return [
    ...order.trancheSeqs.map((seq) => ({
      id: `${ieoTrancheHoldId(orderId, seq)}:cancel`,
      type: 'void_pending' as const,
      pendingId: ieoTrancheHoldId(orderId, seq),
      code: 'ieo_cancel',
      reference,
    })),
    {
      id: `${reference}:cancel:tokens`,
      code: 'ieo_cancel',
      reference,
      debit: userAccount(order.userId, 'ieo'),
      credit: ieoProjectAccount(project.id),
      asset: project.coin,
      amount: order.delivered,
    },
    {
      id: `${reference}:cancel:refund`,
      code: 'ieo_cancel',
      reference,
      debit: ieoProjectAccount(project.id),
      credit: userAccount(order.userId, 'spot'),
      asset: order.paycoin,
      amount: order.amount,
    },
  ];
}
