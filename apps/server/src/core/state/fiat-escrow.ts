import { Dec } from '@halyard/money';
import type { FiatAppealKind, FiatOrderState } from '@halyard/protocol';
import { FIAT_APPEAL_BEFORE_EXPIRY_MS } from '@halyard/rules';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import { isLedgerRefusal } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import {
  type FiatAdMoney,
  fiatAdAmountBatch,
  fiatEscrowHold,
  fiatMerchantAccount,
  fiatMerchantDepositHold,
  fiatNumberOf,
  fiatRefundTransfer,
  fiatReleaseTransfer,
} from './fiat-rules.ts';
import { available as availableOf, type MoneyState, tryApplyTransfers } from './money-state.ts';

/**
 * Fiat escrow (modules/fiat, spec §7 c2c; docs/core.md, "IEO and fiat escrow
 * in the state"): the commands that move the transfers modules/fiat and the
 * money state both build (fiat-rules.ts). The edge matches merchants (their ranking
 * reads the merchants' SQL counters), checks who may trade, reads the ad's
 * terms and stamps them; the state decides, on its own balances, ads and
 * open orders, whether the order opens and whether each step is allowed.
 *
 * Over 500 lines because the seven commands, the state they keep and the row
 * changes they publish are one escrow story, each part short; the transfers
 * are apart (fiat-rules.ts).
 */

// ── the commands ─────────────────────────────────────────────────────────

interface CommandBase {
  id?: string;
  at: number;
}

/**
 * An ad's amount and liveness (publishAd, setAdOnline, takeAdOffline,
 * restockAd): the edge checks the merchant and the terms, writes the ad's
 * row (terms, price, methods) and sends what the hold depends on.
 */
export interface FiatAdCommand extends CommandBase {
  kind: 'fiatAd';
  adId: number;
  side: 'buy' | 'sell';
  coin: string;
  /** The merchant's user id; null for the house merchant. */
  merchantUserId: number | null;
  available: string;
  online: boolean;
}

/** An ad the edge matched, best first, with what the order row copies of it. */
export interface FiatCandidate {
  adId: number;
  merchantId: number;
  merchantUserId: number | null;
  price: string;
  windowMs: number;
  terms: string;
  /** The payee details the order shows (JSON): the seller's own, or the ad method's. */
  payee: string;
}

/**
 * An order (`/fiat/addFiatPayOrder`, `/fiat/sellFiatOrder`): the edge checks
 * the pair, the amount's limits and who may trade, and ranks the ads; the
 * state takes the first candidate still live with enough coin, holds the
 * seller's coin in escrow (a sell checks the user's fiat wallet) and takes
 * the ad's part of its hold, in one batch.
 */
export interface FiatOpenCommand extends CommandBase {
  kind: 'fiatOpen';
  userId: number;
  side: 'buy' | 'sell';
  coin: string;
  fiat: string;
  /** Fiat, as checked. */
  amount: string;
  payType: string;
  candidates: FiatCandidate[];
}

/** The edge's read of the order's row, for the refusal's params (the state forgets closed orders). */
interface OrderWindow {
  orderId: number;
  expiresAt: number;
  /** payWindowMinutes of the row. */
  windowMinutes: number;
}

/** "I have paid" (the buyer, or the demo house): to_pay → paid before the window ends. */
export interface FiatPaidCommand extends CommandBase, OrderWindow {
  kind: 'fiatPaid';
  by: string;
  reason: string;
  img: string | null;
}

/** An appeal (checked by the edge): paid, or to_pay in the window's last minutes → appeal. */
export interface FiatAppealCommand extends CommandBase {
  kind: 'fiatAppeal';
  orderId: number;
  role: 'buyer' | 'seller';
  appealKind: FiatAppealKind;
  reason: string;
}

/** An operator's audit entry, written with the ruling. */
export interface FiatAudit {
  operator: string;
  operatorId: number | null;
  action: string;
  userId: number | null;
  details: string;
}

/** The release: the seller from `paid`, or an operator's ruling from `appeal`. */
export interface FiatReleaseCommand extends CommandBase {
  kind: 'fiatRelease';
  orderId: number;
  from: 'paid' | 'appeal';
  by: string;
  reason: string;
  audit: FiatAudit | null;
}

/**
 * The refund: the buyer cancels or the clock expires it (from `to_pay`), or
 * an operator rules for the seller (from `appeal`). `ban`: what the module
 * checks after it (a buyer's cancels in the day, an unpaid order's payer).
 */
export interface FiatRefundCommand extends CommandBase {
  kind: 'fiatRefund';
  orderId: number;
  from: 'to_pay' | 'appeal';
  by: string;
  reason: string;
  audit: FiatAudit | null;
  ban: FiatBanCheck | null;
}

/**
 * An operator's decision on a merchant's application (the edge checks the
 * reason and that it is in review): an approval holds the deposit.
 */
export interface FiatMerchantDecidedCommand extends CommandBase {
  kind: 'fiatMerchantDecided';
  merchantId: number;
  userId: number;
  approve: boolean;
  audit: FiatAudit;
}

export type FiatBanCheck =
  | { rule: 'cancels'; userId: number }
  | { rule: 'unpaid'; userId: number; windowMinutes: number };

export type FiatCommand =
  | FiatAdCommand
  | FiatOpenCommand
  | FiatPaidCommand
  | FiatAppealCommand
  | FiatReleaseCommand
  | FiatRefundCommand
  | FiatMerchantDecidedCommand;

/** An open order as the state keeps it (closed orders live in SQL only). */
interface FiatOpenOrder {
  id: number;
  userId: number;
  merchantId: number;
  adId: number;
  coin: string;
  number: string;
  holdId: string;
  state: 'to_pay' | 'paid' | 'appeal';
  expiresAt: number;
  paidAt: number | null;
}

export interface FiatState {
  nextOrderId: number;
  ads: Map<number, FiatAdMoney>;
  orders: Map<number, FiatOpenOrder>;
  /** Each user's open order (one at most), rebuilt from `orders` at a load. */
  openByUser: Map<number, number>;
  /** Merchants an operator decided on: a decision is taken once. */
  decided: Set<number>;
}

export function createFiatState(): FiatState {
  return { nextOrderId: 1, ads: new Map(), orders: new Map(), openByUser: new Map(), decided: new Set() };
}

export interface FiatSnapshot {
  nextOrderId: number;
  ads: FiatAdMoney[];
  orders: FiatOpenOrder[];
  decided: number[];
}

export function encodeFiat(state: FiatState): FiatSnapshot {
  return {
    nextOrderId: state.nextOrderId,
    ads: [...state.ads.values()],
    orders: [...state.orders.values()],
    decided: [...state.decided],
  };
}

export function decodeFiat(snapshot: FiatSnapshot | undefined): FiatState {
  const state = createFiatState();
  if (!snapshot) return state;
  state.nextOrderId = snapshot.nextOrderId;
  for (const ad of snapshot.ads) state.ads.set(ad.adId, ad);
  for (const order of snapshot.orders) {
    state.orders.set(order.id, order);
    state.openByUser.set(order.userId, order.id);
  }
  for (const merchantId of snapshot.decided) state.decided.add(merchantId);
  return state;
}

/** A `fiat_orders` row as inserted. */
export interface FiatOrderRecord {
  id: number;
  side: 'buy' | 'sell';
  user_id: number;
  merchant_id: number;
  ad_id: number;
  coin: string;
  fiat: string;
  price: string;
  amount: string;
  number: string;
  pay_type: string;
  payee: string;
  pay_img: null;
  state: 'to_pay';
  hold_id: string;
  expires_at: number;
  terms: string;
  paid_at: null;
  appeal_by: null;
  appeal_reason: null;
  appeal_kind: null;
  closed_at: null;
  created_at: number;
}

/** What modules/fiat/projection.ts writes, in the module's order, with the store function of each name. */
export type FiatRowOp =
  | {
      op: 'updateAd';
      adId: number;
      available: string;
      online: boolean;
      holdId: string | null;
      holdSeq: number;
    }
  | { op: 'insertOrder'; row: FiatOrderRecord }
  | { op: 'countMerchantOrder'; merchantId: number }
  | { op: 'countMerchantRelease'; merchantId: number; releaseMs: number }
  | {
      op: 'moveState';
      orderId: number;
      to: 'paid' | 'appeal' | 'completed' | 'cancelled';
      values: {
        pay_img?: string | null;
        paid_at?: number;
        appeal_by?: string;
        appeal_reason?: string;
        appeal_kind?: FiatAppealKind;
        closed_at?: number;
      };
    }
  | { op: 'insertEvent'; orderId: number; state: FiatOrderState; by: string; at: number; reason: string }
  | { op: 'audit'; at: number; audit: FiatAudit }
  | { op: 'decideMerchant'; merchantId: number; state: 'approved' | 'rejected'; depositHold: string | null }
  | { op: 'ban'; at: number; orderId: number; check: FiatBanCheck };

type Outcome = Applied<MoneyResult, MoneyEvent>;

function refusal(key: string, params?: Record<string, string | number>): Outcome {
  return {
    result: params === undefined ? { ok: false, error: key } : { ok: false, error: key, params },
    events: [],
  };
}

const wrongState = () => refusal('fiat.wrongState');
const isText = (value: unknown): value is string => typeof value === 'string';

/** One ledger batch, the rows after it; the ledger's refusal as the answer, having changed nothing. */
function settle(
  state: MoneyState,
  batch: TransferInput[],
  at: number,
  seq: number,
  emit: boolean,
  result: MoneyResult,
  ops: FiatRowOp[],
): Outcome {
  const transfers: string[] = [];
  const events: MoneyEvent[] = [];
  if (batch.length > 0) {
    const plan = tryApplyTransfers(state, batch, at, seq, true);
    // Answered as the module's request answers the ledger's error: its key and params.
    if (isLedgerRefusal(plan)) return refusal(plan.refused, plan.params);
    transfers.push(...plan.results);
    if (emit && plan.newTransfers.length > 0)
      events.push({ type: 'transfers', transfers: plan.newTransfers });
  }
  if (emit) events.push({ type: 'fiat', ops });
  return { result: result.ok && transfers.length > 0 ? { ...result, transfers } : result, events };
}

export function applyFiatAd(state: MoneyState, command: FiatAdCommand, seq: number, emit: boolean): Outcome {
  const amount = isText(command.available) ? Dec.tryParse(command.available) : null;
  if (!Number.isSafeInteger(command.adId) || amount === null || amount.isNegative()) return malformed();
  if (command.side !== 'buy' && command.side !== 'sell') return malformed();
  const current = state.fiat.ads.get(command.adId);
  const ad: FiatAdMoney = current ?? {
    adId: command.adId,
    side: command.side,
    coin: command.coin,
    account: fiatMerchantAccount(command.merchantUserId),
    available: '0',
    online: false,
    holdId: null,
    holdSeq: 0,
  };
  const online = command.online === true;
  const { batch, holdId, holdSeq } = fiatAdAmountBatch(ad, amount, online);
  const outcome = settle(state, batch, command.at, seq, emit, { ok: true }, [
    { op: 'updateAd', adId: ad.adId, available: amount.toString(), online, holdId, holdSeq },
  ]);
  if (outcome.result.ok)
    state.fiat.ads.set(ad.adId, { ...ad, available: amount.toString(), online, holdId, holdSeq });
  return outcome;
}

export function applyFiatOpen(
  state: MoneyState,
  command: FiatOpenCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const amount = isText(command.amount) ? Dec.tryParse(command.amount) : null;
  if (!Number.isSafeInteger(command.userId) || amount === null || !Array.isArray(command.candidates))
    return malformed();
  const { fiat } = state;
  if (fiat.openByUser.has(command.userId)) return refusal('fiat.openOrderExists');
  for (const candidate of command.candidates) {
    const ad = fiat.ads.get(candidate.adId);
    const price = isText(candidate.price) ? Dec.tryParse(candidate.price) : null;
    if (!ad || price === null || !price.isPositive()) continue;
    const number = fiatNumberOf(amount, price);
    if (!ad.online || Dec.parse(ad.available).lt(number) || !number.isPositive()) continue;
    return open(state, command, candidate, ad, number, seq, emit);
  }
  return refusal('fiat.noMerchant');
}

function open(
  state: MoneyState,
  command: FiatOpenCommand,
  candidate: FiatCandidate,
  ad: FiatAdMoney,
  number: Dec,
  seq: number,
  emit: boolean,
): Outcome {
  const { fiat } = state;
  const user = userAccount(command.userId, 'fiat');
  const merchant = fiatMerchantAccount(candidate.merchantUserId);
  const [from, to] = command.side === 'buy' ? [merchant, user] : [user, merchant];
  if (command.side === 'sell' && availableOf(state, user, command.coin).lt(number))
    return refusal('rules.insufficientBalance');
  const orderId = fiat.nextOrderId;
  const escrow = fiatEscrowHold(orderId, from, to, command.coin, number);
  const left = Dec.parse(ad.available).sub(number);
  const { batch, holdId, holdSeq } = fiatAdAmountBatch(ad, left, ad.online, { after: [escrow] });
  const row: FiatOrderRecord = {
    id: orderId,
    side: command.side,
    user_id: command.userId,
    merchant_id: candidate.merchantId,
    ad_id: ad.adId,
    coin: command.coin,
    fiat: command.fiat,
    price: Dec.canonical(candidate.price),
    amount: Dec.canonical(command.amount),
    number: number.toString(),
    pay_type: command.payType,
    payee: candidate.payee,
    pay_img: null,
    state: 'to_pay',
    hold_id: escrow.id,
    expires_at: command.at + candidate.windowMs,
    terms: candidate.terms,
    paid_at: null,
    appeal_by: null,
    appeal_reason: null,
    appeal_kind: null,
    closed_at: null,
    created_at: command.at,
  };
  const outcome = settle(state, batch, command.at, seq, emit, { ok: true, fiatOrderId: orderId }, [
    { op: 'insertOrder', row },
    { op: 'updateAd', adId: ad.adId, available: left.toString(), online: ad.online, holdId, holdSeq },
    { op: 'countMerchantOrder', merchantId: candidate.merchantId },
    { op: 'insertEvent', orderId, state: 'to_pay', by: 'buyer', at: command.at, reason: 'matched' },
  ]);
  if (!outcome.result.ok) return outcome;
  fiat.nextOrderId += 1;
  fiat.ads.set(ad.adId, { ...ad, available: left.toString(), holdId, holdSeq });
  fiat.openByUser.set(command.userId, orderId);
  fiat.orders.set(orderId, {
    id: orderId,
    userId: command.userId,
    merchantId: candidate.merchantId,
    adId: ad.adId,
    coin: command.coin,
    number: number.toString(),
    holdId: escrow.id,
    state: 'to_pay',
    expiresAt: row.expires_at,
    paidAt: null,
  });
  return outcome;
}

export function applyFiatPaid(
  state: MoneyState,
  command: FiatPaidCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const { at } = command;
  const expired = () => refusal('fiat.expired', { minutes: command.windowMinutes });
  const order = state.fiat.orders.get(command.orderId);
  if (order?.state !== 'to_pay' || at >= order.expiresAt)
    return at >= command.expiresAt ? expired() : wrongState();
  state.fiat.orders.set(order.id, { ...order, state: 'paid', paidAt: at });
  return settle(state, [], at, seq, emit, { ok: true }, [
    { op: 'moveState', orderId: order.id, to: 'paid', values: { pay_img: command.img, paid_at: at } },
    { op: 'insertEvent', orderId: order.id, state: 'paid', by: command.by, at, reason: command.reason },
  ]);
}

export function applyFiatAppeal(
  state: MoneyState,
  command: FiatAppealCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const { at } = command;
  const order = state.fiat.orders.get(command.orderId);
  if (!order) return wrongState();
  // After "paid", or in the window's last minutes (a payment sent but not yet marked).
  const late = at >= order.expiresAt - FIAT_APPEAL_BEFORE_EXPIRY_MS && at < order.expiresAt;
  if (!(order.state === 'paid' || (late && order.state === 'to_pay'))) return wrongState();
  state.fiat.orders.set(order.id, { ...order, state: 'appeal' });
  return settle(state, [], at, seq, emit, { ok: true }, [
    {
      op: 'moveState',
      orderId: order.id,
      to: 'appeal',
      values: { appeal_by: command.role, appeal_reason: command.reason, appeal_kind: command.appealKind },
    },
    { op: 'insertEvent', orderId: order.id, state: 'appeal', by: command.role, at, reason: command.reason },
  ]);
}

export function applyFiatRelease(
  state: MoneyState,
  command: FiatReleaseCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const { at } = command;
  const order = state.fiat.orders.get(command.orderId);
  if (!order || order.state !== command.from) return wrongState();
  const ops: FiatRowOp[] = [
    { op: 'moveState', orderId: order.id, to: 'completed', values: { closed_at: at } },
    { op: 'countMerchantRelease', merchantId: order.merchantId, releaseMs: at - (order.paidAt ?? at) },
    { op: 'insertEvent', orderId: order.id, state: 'completed', by: command.by, at, reason: command.reason },
  ];
  if (command.audit) ops.push({ op: 'audit', at, audit: command.audit });
  const batch = [fiatReleaseTransfer(order.id, order.holdId, Dec.parse(order.number))];
  const outcome = settle(state, batch, at, seq, emit, { ok: true }, ops);
  if (outcome.result.ok) closeOrder(state, order);
  return outcome;
}

export function applyFiatRefund(
  state: MoneyState,
  command: FiatRefundCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const { at } = command;
  const order = state.fiat.orders.get(command.orderId);
  if (!order || order.state !== command.from) return wrongState();
  const refund = fiatRefundTransfer(order.id, order.holdId);
  // The order's part goes back to its ad: held again if the ad is live, the merchant's to spend if not.
  const ad = state.fiat.ads.get(order.adId);
  const ops: FiatRowOp[] = [
    { op: 'moveState', orderId: order.id, to: 'cancelled', values: { closed_at: at } },
  ];
  let batch: TransferInput[] = [refund];
  let after: FiatAdMoney | null = null;
  if (ad) {
    const back = Dec.parse(ad.available).add(Dec.parse(order.number));
    const planned = fiatAdAmountBatch(ad, back, ad.online, { before: [refund] });
    batch = planned.batch;
    after = { ...ad, available: back.toString(), holdId: planned.holdId, holdSeq: planned.holdSeq };
    ops.push({
      op: 'updateAd',
      adId: ad.adId,
      available: after.available,
      online: ad.online,
      holdId: planned.holdId,
      holdSeq: planned.holdSeq,
    });
  }
  ops.push({
    op: 'insertEvent',
    orderId: order.id,
    state: 'cancelled',
    by: command.by,
    at,
    reason: command.reason,
  });
  if (command.audit) ops.push({ op: 'audit', at, audit: command.audit });
  if (command.ban) ops.push({ op: 'ban', at, orderId: order.id, check: command.ban });
  const outcome = settle(state, batch, at, seq, emit, { ok: true }, ops);
  if (!outcome.result.ok) return outcome;
  closeOrder(state, order);
  if (after) state.fiat.ads.set(after.adId, after);
  return outcome;
}

export function applyFiatMerchantDecided(
  state: MoneyState,
  command: FiatMerchantDecidedCommand,
  seq: number,
  emit: boolean,
): Outcome {
  if (!Number.isSafeInteger(command.merchantId) || !Number.isSafeInteger(command.userId)) return malformed();
  if (state.fiat.decided.has(command.merchantId)) return wrongState();
  const hold = command.approve ? fiatMerchantDepositHold(command.merchantId, command.userId) : null;
  const outcome = settle(state, hold ? [hold] : [], command.at, seq, emit, { ok: true }, [
    {
      op: 'decideMerchant',
      merchantId: command.merchantId,
      state: command.approve ? 'approved' : 'rejected',
      depositHold: hold?.id ?? null,
    },
    { op: 'audit', at: command.at, audit: command.audit },
  ]);
  if (outcome.result.ok) state.fiat.decided.add(command.merchantId);
  return outcome;
}

function closeOrder(state: MoneyState, order: FiatOpenOrder): void {
  state.fiat.orders.delete(order.id);
  state.fiat.openByUser.delete(order.userId);
}

function malformed(): Outcome {
  return refusal('ledger.invalidTransfer', { field: 'command' });
}
