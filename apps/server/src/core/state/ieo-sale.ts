import { Dec } from '@halyard/money';
import { checkIeoSubscription } from '@halyard/rules';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import type { IeoCancelSaleCommand, IeoSale, IeoSaleCommand, IeoSubscribeCommand } from './ieo.ts';
import { advance, progress } from './ieo-clock.ts';
import {
  type IeoSaleTerms,
  ieoCancellable,
  ieoCommitHold,
  ieoDeliveryTransfers,
  ieoFundTransfer,
  ieoPayTransfer,
  ieoPurchaseOf,
  ieoRefundTransfers,
  ieoTranchesOf,
} from './ieo-rules.ts';
import {
  fundingOf,
  isText,
  malformed,
  newOrder,
  type Outcome,
  recordDelivery,
  refusal,
  ruleRefusal,
  updateOrder,
  vestingOf,
  Work,
} from './ieo-steps.ts';
import { available, type MoneyState } from './money-state.ts';

/**
 * The IEO commands of the operator and the users (docs/core.md, "Token
 * launches (IEO)"): a sale's terms (`ieoSale`), a subscription
 * (`ieoSubscribe`), a cancel (`ieoCancelSale`). The clock's are ieo-clock.ts.
 */

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
    return work.done(progress(work, sale));
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
  return work.done(progress(work, current));
}

export function applyIeoCancelSale(
  state: MoneyState,
  command: IeoCancelSaleCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const sale = Number.isSafeInteger(command.projectId) ? state.ieo.sales.get(command.projectId) : undefined;
  if (!sale) return refusal('ieo.projectNotFound');
  if (!ieoCancellable(sale.state)) return refusal('ieo.termsFrozen');
  const work = new Work(state, command.at, seq, emit);
  cancel(work, sale);
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
      price: Dec.canonical(pay.price),
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
