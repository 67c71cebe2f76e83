// Where futures money moves, as ledger transfers: every leg the engine and
// the money state write is built here, from figures their stages computed,
// and nothing here reads or writes (the engine executes the legs in its
// group's transaction, the money state applies them in memory). A leg of
// zero is left out: the ledger moves only positive amounts.
//
// The accounts: an order's hold sits in `clearing`; a position's margin in
// the `futures_margin` pool; fees go to `fees`; what a position cannot pay
// comes from `insurance`; the house (market maker) trades from `market_maker`.
//
// An order's hold and release, and every leg of a trade's fills, are
// `derived` (ledger/transfers.ts): their ids come from the order's id, which
// is handed out once (the money state's `nextOrderId`, the engine's row id),
// and from the trade's place among that taker's trades, so no retry can name
// them. The ledger neither looks them up nor keeps them for retries; the
// money state forgets an order's hold when the order ends. Liquidation and
// funding legs take ids from the command's tag and time, which a retried
// command repeats, so they stay looked up; so does the house's PnL leg, whose
// builder serves liquidations too.
import { Dec } from '@halyard/money';
import { REFERRAL_TOKEN } from '@halyard/rules';
import { type AccountRef, systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';

export const CLEARING = systemAccount('clearing');
export const FEES = systemAccount('fees');
export const POOL = systemAccount('futures_margin');
export const INSURANCE = systemAccount('insurance');
export const HOUSE = systemAccount('market_maker');

/** Ledger batches are bounded (BATCH_MAX 1000); funding splits its legs in chunks of this. */
const FUNDING_CHUNK = 500;

/** Builds one trade's leg ids: `futures:<taker>:t<n>:<leg>`. */
export type LegId = (leg: string) => string;

export function holdId(autoid: number): string {
  return `futures:${autoid}:hold`;
}

export function orderReference(autoid: number): string {
  return `futures:${autoid}`;
}

export function positionReference(autoid: number): string {
  return `futures:position:${autoid}`;
}

/** Zero-amount legs are left out: the ledger moves only positive amounts. */
function pushPositive(legs: TransferInput[], leg: TransferInput & { amount: Dec }): void {
  if (leg.amount.isPositive()) legs.push(leg);
}

// ── orders ────────────────────────────────────────────────────────────────

/** An order's hold: margin and fee at its worst price, from the trader's account into clearing. */
export function holdTransfer(autoid: number, account: AccountRef, asset: string, hold: Dec): TransferInput {
  return {
    id: holdId(autoid),
    type: 'pending',
    debit: account,
    credit: CLEARING,
    asset,
    amount: hold,
    code: 'futures_order',
    reference: orderReference(autoid),
    derived: true,
  };
}

/** What an ended order's hold still reserves, released. */
export function releaseTransfer(autoid: number): TransferInput {
  return {
    id: `futures:${autoid}:release`,
    type: 'void_pending',
    pendingId: holdId(autoid),
    code: 'futures_release',
    reference: orderReference(autoid),
    derived: true,
  };
}

// ── fills ─────────────────────────────────────────────────────────────────

/**
 * An opening fill: margin + fee posted from the order's hold into clearing,
 * the margin on into the pool, the fee into the fee account; with `feeInHal`
 * the fee the hold kept goes back to the user's futures wallet instead (the
 * fee is paid in HAL, {@link halFeeLeg}).
 */
export function openFillLegs(fill: {
  id: LegId;
  leg: string;
  autoid: number;
  userId: number;
  asset: string;
  margin: Dec;
  fee: Dec;
  feeInHal: boolean;
}): TransferInput[] {
  const { id, leg, asset, margin, fee, feeInHal } = fill;
  const reference = orderReference(fill.autoid);
  const legs: TransferInput[] = [];
  pushPositive(legs, {
    id: id(`${leg}-post`),
    type: 'post_pending',
    pendingId: holdId(fill.autoid),
    amount: margin.add(fee),
    code: 'futures_trade',
    reference,
    derived: true,
  });
  pushPositive(legs, {
    id: id(`${leg}-margin`),
    debit: CLEARING,
    credit: POOL,
    asset,
    amount: margin,
    code: 'futures_margin',
    reference,
    derived: true,
  });
  pushPositive(legs, {
    id: id(`${leg}-fee`),
    debit: CLEARING,
    credit: feeInHal ? userAccount(fill.userId, 'futures') : FEES,
    asset,
    amount: fee,
    code: feeInHal ? 'futures_trade' : 'futures_fee',
    reference,
    derived: true,
  });
  return legs;
}

/** A fee paid in HAL: from the user's spot wallet to the fee account. */
export function halFeeLeg(id: string, userId: number, hal: Dec, reference: string): TransferInput {
  return {
    id,
    debit: userAccount(userId, 'spot'),
    credit: FEES,
    asset: REFERRAL_TOKEN,
    amount: hal,
    code: 'futures_fee',
    reference,
    derived: true,
  };
}

/**
 * A closing fill (see risk.closeFigures): the pool pays back the released
 * margin plus the realised PnL (`gross`), less the fee. A loss beyond the
 * released margin is paid from the free balance for cross margin; for
 * isolated margin (which loses at most its margin), and for whatever cross
 * cannot pay, the insurance fund covers it. A fee the payout cannot cover
 * comes from the free balance, and what that cannot cover is waived: no user
 * balance ever goes below zero. Answers the legs and the fee actually paid.
 */
export function closeFillLegs(fill: {
  id: LegId;
  leg: string;
  autoid: number;
  account: AccountRef;
  asset: string;
  cross: boolean;
  gross: Dec;
  fee: Dec;
  free: Dec;
}): { legs: TransferInput[]; feePaid: Dec } {
  const { id, leg, account, asset, gross, fee } = fill;
  const reference = orderReference(fill.autoid);
  const legs: TransferInput[] = [];
  let feeDue = fee;
  let free = fill.free;
  if (!gross.isNegative()) {
    const feeFromPool = Dec.min(fee, gross);
    pushPositive(legs, {
      id: id(`${leg}-pay`),
      debit: POOL,
      credit: account,
      asset,
      amount: gross.sub(feeFromPool),
      code: 'futures_close',
      reference,
      derived: true,
    });
    pushPositive(legs, {
      id: id(`${leg}-fee`),
      debit: POOL,
      credit: FEES,
      asset,
      amount: feeFromPool,
      code: 'futures_fee',
      reference,
      derived: true,
    });
    feeDue = fee.sub(feeFromPool);
  } else {
    const deficit = gross.neg();
    const fromUser = fill.cross ? Dec.min(deficit, free) : Dec.ZERO;
    free = free.sub(fromUser);
    pushPositive(legs, {
      id: id(`${leg}-loss`),
      debit: account,
      credit: POOL,
      asset,
      amount: fromUser,
      code: 'futures_close',
      reference,
      derived: true,
    });
    pushPositive(legs, {
      id: id(`${leg}-insurance`),
      debit: INSURANCE,
      credit: POOL,
      asset,
      amount: deficit.sub(fromUser),
      code: 'futures_insurance',
      reference,
      derived: true,
    });
  }
  const feeFromFree = Dec.min(feeDue, free);
  pushPositive(legs, {
    id: id(`${leg}-fee-free`),
    debit: account,
    credit: FEES,
    asset,
    amount: feeFromFree,
    code: 'futures_fee',
    reference,
    derived: true,
  });
  return { legs, feePaid: fee.sub(feeDue).add(feeFromFree) };
}

/** The house's realised PnL on a fill against its position: between the margin pool and its account. */
export function housePnlLeg(id: string, realised: Dec, asset: string): TransferInput | null {
  if (realised.isPositive()) {
    return { id, debit: POOL, credit: HOUSE, asset, amount: realised, code: 'futures_close' };
  }
  if (realised.isNegative()) {
    return { id, debit: HOUSE, credit: POOL, asset, amount: realised.neg(), code: 'futures_close' };
  }
  return null;
}

// ── liquidation ───────────────────────────────────────────────────────────

/**
 * A liquidated position's equity at the mark: the remaining margin from the
 * pool to the insurance fund when positive, the shortfall from the insurance
 * fund into the pool when negative.
 */
export function takeOverLeg(
  tag: string,
  equity: Dec,
  asset: string,
  positionId: number,
): TransferInput | null {
  const reference = positionReference(positionId);
  if (equity.isPositive()) {
    return {
      id: `${tag}:remaining`,
      debit: POOL,
      credit: INSURANCE,
      asset,
      amount: equity,
      code: 'futures_liquidation',
      reference,
    };
  }
  if (equity.isNegative()) {
    return {
      id: `${tag}:shortfall`,
      debit: INSURANCE,
      credit: POOL,
      asset,
      amount: equity.neg(),
      code: 'futures_insurance',
      reference,
    };
  }
  return null;
}

/** A liquidated cross account's free balance, to the insurance fund. */
export function crossFreeLeg(tag: string, userId: number, asset: string, free: Dec): TransferInput {
  return {
    id: `${tag}:free`,
    debit: userAccount(userId, 'futures'),
    credit: INSURANCE,
    asset,
    amount: free,
    code: 'futures_liquidation',
  };
}

// ── funding ───────────────────────────────────────────────────────────────

/** A funding receiver's payment out of clearing: into the pool for an isolated position's margin, else to its owner. */
export function fundingReceiverLeg(payment: {
  id: string;
  reference: string;
  owner: AccountRef;
  toMargin: boolean;
  asset: string;
  amount: Dec;
}): TransferInput {
  return {
    id: payment.id,
    debit: CLEARING,
    credit: payment.toMargin ? POOL : payment.owner,
    asset: payment.asset,
    amount: payment.amount,
    code: 'futures_funding',
    reference: payment.reference,
  };
}

/**
 * A funding payer's legs into clearing: from the free balance first (`free`,
 * null when the position does not draw on it; the house pays all from its
 * account), then from the position's margin, the rest from the insurance
 * fund. Answers the legs and what was taken from the margin.
 */
export function fundingPayerLegs(payment: {
  id: string;
  reference: string;
  owner: AccountRef;
  house: boolean;
  free: Dec | null;
  margin: Dec;
  asset: string;
  amount: Dec;
}): { legs: TransferInput[]; fromMargin: Dec } {
  const { id, reference, owner, asset } = payment;
  const legs: TransferInput[] = [];
  let due = payment.amount;
  if (payment.free !== null) {
    const fromFree = payment.house ? due : Dec.min(due, payment.free);
    pushPositive(legs, {
      id: `${id}:free`,
      debit: owner,
      credit: CLEARING,
      asset,
      amount: fromFree,
      code: 'futures_funding',
      reference,
    });
    due = due.sub(fromFree);
  }
  const fromMargin = Dec.min(due, payment.margin);
  pushPositive(legs, {
    id: `${id}:margin`,
    debit: POOL,
    credit: CLEARING,
    asset,
    amount: fromMargin,
    code: 'futures_funding',
    reference,
  });
  pushPositive(legs, {
    id: `${id}:insurance`,
    debit: INSURANCE,
    credit: CLEARING,
    asset,
    amount: due.sub(fromMargin),
    code: 'futures_insurance',
    reference,
  });
  return { legs, fromMargin };
}

/** A funding round's legs in bounded batches: payers first, so clearing is funded before receivers are paid. */
export function fundingBatches(
  payers: readonly TransferInput[],
  receivers: readonly TransferInput[],
): TransferInput[][] {
  const legs = [...payers, ...receivers];
  const batches: TransferInput[][] = [];
  for (let start = 0; start < legs.length; start += FUNDING_CHUNK) {
    batches.push(legs.slice(start, start + FUNDING_CHUNK));
  }
  return batches;
}
