import { Dec } from '@halyard/money';
import { type AccountRef, systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';

/**
 * The fiat escrow's transfers (spec §7 c2c; docs/core.md, "Fiat escrow"),
 * built alike by modules/fiat's FiatService and the money state's commands
 * (fiat-escrow.ts): an ad's hold, an order's escrow hold, its release and its
 * refund, a merchant's deposit.
 */

/** Coin amounts keep 8 decimals (spec §9). */
export const FIAT_COIN_DIGITS = 8;

/** The ledger account a merchant's coin sits in: a user's fiat (c2c) wallet, or the house's (userId null). */
export function fiatMerchantAccount(merchantUserId: number | null): AccountRef {
  return merchantUserId === null ? systemAccount('fiat_house') : userAccount(merchantUserId, 'fiat');
}

/** The coin an order of `amount` fiat buys at `price`, floored to 8 decimals. */
export function fiatNumberOf(amount: Dec, price: Dec): Dec {
  return amount.div(price).floorTo(FIAT_COIN_DIGITS);
}

/** An ad's money: what it offers, whether it is live, and the hold on it (a live sell ad only). */
export interface FiatAdMoney {
  adId: number;
  /** The user's side: 'buy' is an ad where the merchant sells coin (it holds its amount while live). */
  side: 'buy' | 'sell';
  coin: string;
  /** The merchant's account. */
  account: AccountRef;
  available: string;
  online: boolean;
  holdId: string | null;
  holdSeq: number;
}

/**
 * An ad's amount and liveness set, with its hold: the current hold voided
 * and the new amount held under a fresh id, between `before` (an order's
 * refund) and `after` (an order's escrow), as one ledger batch.
 */
export function fiatAdAmountBatch(
  ad: Pick<FiatAdMoney, 'adId' | 'side' | 'coin' | 'account' | 'holdId' | 'holdSeq'>,
  available: Dec,
  online: boolean,
  around: { before?: TransferInput[]; after?: TransferInput[] } = {},
): { batch: TransferInput[]; holdId: string | null; holdSeq: number } {
  const batch: TransferInput[] = [...(around.before ?? [])];
  if (ad.holdId !== null)
    batch.push({
      id: `${ad.holdId}:void`,
      type: 'void_pending',
      code: 'fiat_ad_release',
      pendingId: ad.holdId,
    });
  const seq = ad.holdSeq + 1;
  const holdId =
    ad.side === 'buy' && online && available.isPositive() ? `fiat:ad:${ad.adId}:hold:${seq}` : null;
  if (holdId)
    batch.push({
      id: holdId,
      type: 'pending',
      code: 'fiat_ad_hold',
      reference: `fiat:ad:${ad.adId}`,
      debit: ad.account,
      credit: systemAccount('fiat_ads'),
      asset: ad.coin,
      amount: available,
    });
  batch.push(...(around.after ?? []));
  return { batch, holdId, holdSeq: holdId ? seq : ad.holdSeq };
}

/** An order's escrow: the seller's coin held toward the buyer. */
export function fiatEscrowHold(
  orderId: number,
  from: AccountRef,
  to: AccountRef,
  coin: string,
  number: Dec,
): TransferInput {
  const reference = `fiat:${orderId}`;
  return {
    id: `${reference}:escrow`,
    type: 'pending',
    code: 'fiat_escrow',
    reference,
    debit: from,
    credit: to,
    asset: coin,
    amount: number,
  };
}

/** The release: the escrow posted to the buyer. */
export function fiatReleaseTransfer(orderId: number, holdId: string, number: Dec): TransferInput {
  const reference = `fiat:${orderId}`;
  return {
    id: `${reference}:release`,
    type: 'post_pending',
    code: 'fiat_release',
    reference,
    pendingId: holdId,
    amount: number,
  };
}

/** The security deposit a merchant's approval holds (issue 16 item 1). */
export const FIAT_MERCHANT_DEPOSIT = { coin: 'USDT', amount: '500' } as const;

/** The deposit's hold, from the merchant's fiat wallet, named after the merchant. */
export function fiatMerchantDepositHold(merchantId: number, userId: number): TransferInput {
  return {
    id: `fiat:merchant-deposit:${merchantId}`,
    type: 'pending',
    code: 'fiat_merchant_deposit',
    reference: `fiat:merchant:${merchantId}`,
    debit: userAccount(userId, 'fiat'),
    credit: systemAccount('fiat_deposits'),
    asset: FIAT_MERCHANT_DEPOSIT.coin,
    amount: Dec.parse(FIAT_MERCHANT_DEPOSIT.amount),
  };
}

/** The refund: the escrow voided, back to the seller. */
export function fiatRefundTransfer(orderId: number, holdId: string): TransferInput {
  const reference = `fiat:${orderId}`;
  return {
    id: `${reference}:refund`,
    type: 'void_pending',
    code: 'fiat_refund',
    reference,
    pendingId: holdId,
  };
}
