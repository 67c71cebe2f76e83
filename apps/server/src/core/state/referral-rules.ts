import { Dec } from '@halyard/money';
import type { ReferralExclusion, ReferralProduct } from '@halyard/protocol';
import { halFeeFor, REFERRAL_LEVEL_TWO_RATE, REFERRAL_TOKEN, referralShares } from '@halyard/rules';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';

/**
 * The rules of fees in HAL and referral commissions that both deciders
 * share: modules/referral (which reads profiles, prices and tiers from SQL
 * and its caches) and the money state (which keeps them in memory, fed by
 * commands). Pure: each takes what it decides on as arguments, so the two
 * can never pay a fee or a commission differently.
 */

const FEES = systemAccount('fees');
const LEVEL_TWO_RATE = Dec.parse(REFERRAL_LEVEL_TWO_RATE);
/** The coin index prices are quoted in: a fee in it is worth itself. */
export const INDEX_QUOTE_COIN = 'USDT';

/**
 * What a fee of `fee` in `coin` costs in HAL at the index prices (`priceOf`
 * answers a coin's index price, or nothing), before the payer's deduction
 * flag and HAL balance are asked: null when the fee is in HAL already, a
 * price is missing, or the fee is too small for a HAL unit.
 */
export function halFeeQuote(
  fee: Dec,
  coin: string,
  priceOf: (coin: string) => Dec | null | undefined,
  discount: Dec,
): Dec | null {
  if (!fee.isPositive() || coin === REFERRAL_TOKEN) return null;
  const halPrice = priceOf(REFERRAL_TOKEN);
  const coinPrice = coin === INDEX_QUOTE_COIN ? Dec.ONE : priceOf(coin);
  if (!halPrice?.isPositive() || !coinPrice) return null;
  const hal = halFeeFor(fee.mul(coinPrice), halPrice, discount);
  return hal.isPositive() ? hal : null;
}

/** An ID number as the same-identity exclusion compares it. */
export function normalizedIdNumber(idNumber: string): string {
  return idNumber.trim().toUpperCase();
}

/** What the commission rules read of a user. */
export interface ReferralMember {
  userId: number;
  kickbackRate: Dec;
  /** Every ID number the user ever submitted for KYC, trimmed and upper-cased. */
  idNumbers: ReadonlySet<string>;
}

/** One fee a trade charged, as the product hands it over, in the same transaction as the fee's transfer. */
export interface FeeCharge {
  product: ReferralProduct;
  /** The trade (fill, cycle order) the fee belongs to. */
  tradeId: string;
  /** The fee transfer's id: the commissions' ids are built from it, so a retry or replay writes them once. */
  legId: string;
  payerId: number;
  /** The user on the other side of the trade; null for the house or none. */
  counterpartyId: number | null;
  coin: string;
  fee: Dec;
  time: number;
}

/** An inviter's tier on the fee's UTC day: its number, rate, and the rate as stored. */
export interface TierRate {
  tier: 1 | 2 | 3;
  rate: Dec;
  rateText: string;
}

/** Why `earner` earns nothing on this fee of `payer`, or null. */
export function commissionExclusion(
  charge: FeeCharge,
  payer: ReferralMember,
  earner: ReferralMember,
  marketMakers: ReadonlySet<number>,
): ReferralExclusion | null {
  if (marketMakers.has(payer.userId) || marketMakers.has(earner.userId)) return 'house';
  if (charge.counterpartyId === earner.userId) return 'counterparty';
  for (const idNumber of payer.idNumbers) if (earner.idNumbers.has(idNumber)) return 'sameIdentity';
  return null;
}

/** One level's share of a fee, as planned. */
interface PlannedShare {
  userId: number;
  /** The rate used, as stored ("0" when excluded). */
  rate: string;
  amount: Dec;
  excluded: ReferralExclusion | null;
}

/** What one fee pays: the fee, level 1 (with its tier and the kickback it gives) and level 2 if there is one. */
export interface PlannedCommission {
  charge: FeeCharge;
  levelOne: PlannedShare & { tier: 1 | 2 | 3 | null; kickback: Dec };
  levelTwo: PlannedShare | null;
}

/**
 * What one fee of a payer with an inviter pays: level 1 (the inviter) its
 * tier's rate of the fee less the kickback it gives the payer, level 2 (the
 * inviter's inviter, if any) 10 %. An excluded level earns nothing and says
 * why. `tier` is the inviter's tier on the fee's day; the caller reads it
 * only when level 1 is not excluded (null then).
 */
export function planCommission(
  charge: FeeCharge,
  payer: ReferralMember,
  inviter: ReferralMember,
  grand: ReferralMember | null,
  marketMakers: ReadonlySet<number>,
  tier: TierRate | null,
): PlannedCommission {
  const levelOneExcluded = commissionExclusion(charge, payer, inviter, marketMakers);
  const levelTwoExcluded = grand ? commissionExclusion(charge, payer, grand, marketMakers) : null;
  const levelOneTier = levelOneExcluded ? null : tier;
  const shares = referralShares(
    charge.fee,
    levelOneTier ? { rate: levelOneTier.rate, kickback: inviter.kickbackRate } : null,
    grand && !levelTwoExcluded ? LEVEL_TWO_RATE : null,
  );
  return {
    charge,
    levelOne: {
      userId: inviter.userId,
      tier: levelOneTier?.tier ?? null,
      rate: levelOneTier ? levelOneTier.rateText : '0',
      amount: shares.levelOne,
      kickback: shares.kickback,
      excluded: levelOneExcluded,
    },
    levelTwo: grand && {
      userId: grand.userId,
      rate: levelTwoExcluded ? '0' : REFERRAL_LEVEL_TWO_RATE,
      amount: shares.levelTwo,
      excluded: levelTwoExcluded,
    },
  };
}

/** A commission row as `referral_commissions` stores it (its id aside). Plain data: it crosses to a worker. */
export interface CommissionRow {
  /** The transfer the fee was paid with (a spot fee leg, a futures fee leg, a cycle fee; an IEO payment for product `ieo`). */
  leg_id: string;
  trade_id: string;
  product: string;
  friend_id: number;
  /** The base of the rates: the fee the friend paid (for `ieo`, the amount paid for the tokens). */
  fee: string;
  fee_coin: string;
  created_at: number;
  /** Level 1: the friend's inviter. */
  beneficiary_id: number;
  tier: number | null;
  rate: string;
  amount: string;
  kickback: string;
  excluded: string | null;
  /** The ledger transfer that paid a row written paid (a promotion rebate); null for a swept row. */
  paid_by: string | null;
  /** Level 2: the inviter's inviter, or null (and every level2_* column with it). */
  level2_id: number | null;
  level2_rate: string | null;
  level2_amount: string | null;
  level2_excluded: string | null;
  /** When a row written paid was paid (a promotion rebate); null: accrued with the fee, for the payout sweep. */
  paid_at: number | null;
}

/**
 * The commissions of several fees written together (a spot command, a
 * futures trade, a cycle settlement chunk): one row per fee, unpaid. The
 * shares are credited later, by the payout sweep ({@link planCommissionPayout}),
 * in one transfer per earner, coin and kind for every row since the last
 * sweep: a trade pays for its row only, not for transfers of its own.
 */
export class CommissionBatch {
  readonly rows: CommissionRow[] = [];

  add(planned: readonly PlannedCommission[]): void {
    for (const { charge, levelOne, levelTwo } of planned) {
      this.rows.push({
        leg_id: charge.legId,
        trade_id: charge.tradeId,
        product: charge.product,
        friend_id: charge.payerId,
        fee: charge.fee.toString(),
        fee_coin: charge.coin,
        created_at: charge.time,
        beneficiary_id: levelOne.userId,
        tier: levelOne.tier,
        rate: levelOne.rate,
        amount: levelOne.amount.toString(),
        kickback: levelOne.kickback.toString(),
        excluded: levelOne.excluded,
        paid_by: null,
        level2_id: levelTwo?.userId ?? null,
        level2_rate: levelTwo?.rate ?? null,
        level2_amount: levelTwo ? levelTwo.amount.toString() : null,
        level2_excluded: levelTwo?.excluded ?? null,
        paid_at: null,
      });
    }
  }
}

/**
 * What an unpaid commission row owes, as the payout sweep reads it (the
 * module from SQL, the money state from its accruals): its fee leg (the
 * row's key), coin, and the three shares with their earners.
 */
export interface UnpaidCommission {
  legId: string;
  coin: string;
  beneficiaryId: number;
  amount: Dec;
  friendId: number;
  kickback: Dec;
  /** Null when the row has no level 2. */
  level2Id: number | null;
  level2Amount: Dec;
}

/** The columns of a commission row the payout reads, as stored or as written (SQL may answer numbers). */
type UnpaidColumns = Pick<
  CommissionRow,
  | 'leg_id'
  | 'fee_coin'
  | 'beneficiary_id'
  | 'amount'
  | 'friend_id'
  | 'kickback'
  | 'level2_id'
  | 'level2_amount'
>;

/** What a commission row owes, from its columns. */
export function unpaidOf(row: UnpaidColumns): UnpaidCommission {
  return {
    legId: row.leg_id,
    coin: row.fee_coin,
    beneficiaryId: Number(row.beneficiary_id),
    amount: Dec.parse(String(row.amount)),
    friendId: Number(row.friend_id),
    kickback: Dec.parse(String(row.kickback)),
    level2Id: row.level2_id === null ? null : Number(row.level2_id),
    level2Amount: row.level2_amount === null ? Dec.ZERO : Dec.parse(String(row.level2_amount)),
  };
}

export type PayoutCode = 'referral_commission' | 'referral_kickback';

/** A payout transfer: always from the fee account to an earner's spot wallet. */
export type PayoutTransfer = TransferInput & {
  credit: ReturnType<typeof userAccount>;
  asset: string;
  amount: Dec;
};

/**
 * A payout batch over unpaid rows (oldest first, as read): one transfer per
 * earner, coin and kind (commission, kickback) paying the sum of its shares
 * from the fee account to the earner's spot wallet. A transfer's id is the
 * oldest row it pays for, its kind and its earner: each row is paid by one
 * batch only, so the id is unique and the same for whoever plans the same
 * rows (the module and the money state), and a sweep retried after a crash
 * writes it once. `at` is the sweep's time (its transfers' reference, by
 * which a batch's rows find their transfers: migration 040).
 */
export function planCommissionPayout(rows: readonly UnpaidCommission[], at: number): PayoutTransfer[] {
  // By earner, then a scan of their few payouts (a coin or two, commission and kickback): no key string per share.
  const payouts = new Map<number, PayoutTransfer[]>();
  const transfers: PayoutTransfer[] = [];
  const reference = `referral-payout:${at}`;
  const join = (row: UnpaidCommission, userId: number, code: PayoutCode, amount: Dec): void => {
    if (!amount.isPositive()) return;
    let earned = payouts.get(userId);
    if (!earned) {
      earned = [];
      payouts.set(userId, earned);
    }
    const payout = earned.find((entry) => entry.asset === row.coin && entry.code === code);
    if (payout) {
      payout.amount = payout.amount.add(amount);
      return;
    }
    const transfer: PayoutTransfer = {
      id: `referral-payout:${row.legId}:${code}:${userId}`,
      debit: FEES,
      credit: userAccount(userId, 'spot'),
      asset: row.coin,
      amount,
      code,
      reference,
    };
    earned.push(transfer);
    transfers.push(transfer);
  };
  for (const row of rows) {
    join(row, row.beneficiaryId, 'referral_commission', row.amount);
    join(row, row.friendId, 'referral_kickback', row.kickback);
    if (row.level2Id !== null) join(row, row.level2Id, 'referral_commission', row.level2Amount);
  }
  return transfers;
}

/** A token launch's promotion rebate, paid by `transferId`: what the commission records show of it. */
export interface PromotionRebate {
  transferId: string;
  /** The launch order (`ieo:order:<id>`). */
  orderReference: string;
  inviterId: number;
  buyerId: number;
  coin: string;
  /** What the buyer paid for the tokens: the rebate's base. */
  paid: string;
  /** The project's rebate fraction. */
  rate: string;
  amount: string;
  time: number;
}

/** A promotion rebate as a commission row: level 1 only, no tier, no kickback, its own transfer as its leg, paid. */
export function promotionRebateRow(rebate: PromotionRebate): CommissionRow {
  return {
    leg_id: rebate.transferId,
    trade_id: rebate.orderReference,
    product: 'ieo',
    friend_id: rebate.buyerId,
    fee: rebate.paid,
    fee_coin: rebate.coin,
    created_at: rebate.time,
    beneficiary_id: rebate.inviterId,
    tier: null,
    rate: rebate.rate,
    amount: rebate.amount,
    kickback: '0',
    excluded: null,
    paid_by: rebate.transferId,
    level2_id: null,
    level2_rate: null,
    level2_amount: null,
    level2_excluded: null,
    // Paid at once, from the project's proceeds: the payout sweep never sees it.
    paid_at: rebate.time,
  };
}
