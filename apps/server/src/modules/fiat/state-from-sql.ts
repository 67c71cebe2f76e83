import { Dec } from '@halyard/money';
import { decodeFiat, type FiatSnapshot } from '../../core/state/fiat-escrow.ts';
import { fiatMerchantAccount } from '../../core/state/fiat-rules.ts';
import type { MoneyState } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';
import { OPEN_STATES } from './store.ts';

/**
 * The fiat escrow part of the money state built from SQL
 * (projection/initial-state.ts): every ad's amount, liveness and hold, the
 * open orders (to pay, paid, under appeal) with their escrow holds, the
 * merchants an operator decided on, and the next order id after the highest
 * given. Amounts are written as the state writes them (Dec's text).
 */
export async function loadFiatState(db: Executor, state: MoneyState): Promise<void> {
  const ads = await db
    .selectFrom('fiat_ads')
    .innerJoin('fiat_merchants', 'fiat_merchants.id', 'fiat_ads.merchant_id')
    .selectAll('fiat_ads')
    .select('fiat_merchants.user_id as merchant_user_id')
    .orderBy('fiat_ads.id')
    .execute();
  const open = await db
    .selectFrom('fiat_orders')
    .selectAll()
    .where('state', 'in', OPEN_STATES)
    .orderBy('id')
    .execute();
  const highest = await db
    .selectFrom('fiat_orders')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const decided = await db
    .selectFrom('fiat_merchants')
    .select('id')
    .where('state', '!=', 'review')
    .orderBy('id')
    .execute();
  const snapshot: FiatSnapshot = {
    nextOrderId: Number(highest?.id ?? 0) + 1,
    ads: ads.map((row) => ({
      adId: Number(row.id),
      side: row.side,
      coin: row.coin,
      account: fiatMerchantAccount(row.merchant_user_id === null ? null : Number(row.merchant_user_id)),
      available: Dec.canonical(row.available),
      online: Number(row.online) === 1,
      holdId: row.hold_id,
      holdSeq: Number(row.hold_seq),
    })),
    orders: open.map((row) => ({
      id: Number(row.id),
      userId: Number(row.user_id),
      merchantId: Number(row.merchant_id),
      adId: Number(row.ad_id),
      coin: row.coin,
      number: Dec.canonical(row.number),
      holdId: row.hold_id,
      // Read from OPEN_STATES only.
      state: row.state as 'to_pay' | 'paid' | 'appeal',
      expiresAt: Number(row.expires_at),
      paidAt: row.paid_at === null ? null : Number(row.paid_at),
    })),
    decided: decided.map((row) => Number(row.id)),
  };
  state.fiat = decodeFiat(snapshot);
}
