import { FIAT_CANCELS_BEFORE_BAN, fiatBanEnd } from '@halyard/rules';
import type { Executor } from '../../store/database.ts';
import { fiatStore as sql } from './store.ts';

/**
 * The bans of AMENDMENTS A6, as FiatService writes them after a cancel or an
 * expiry, and modules/fiat/projection.ts after the money state's refund: the
 * length climbs the ladder with the bans of the day before it.
 */
export async function recordFiatBan(
  db: Executor,
  userId: number,
  now: number,
  cause: {
    rule: 'unpaid' | 'cancels';
    orderId: number | null;
    key: string;
    params: Record<string, string | number>;
  },
): Promise<void> {
  const earlier = (await sql.bansWithinDay(db, userId, now)).length;
  await sql.insertBan(db, {
    user_id: userId,
    rule: cause.rule,
    order_id: cause.orderId,
    reason_key: cause.key,
    reason_params: JSON.stringify(cause.params),
    starts_at: now,
    ends_at: fiatBanEnd(earlier, now),
  });
}

/** After a buyer's cancel (written already): every third cancel within a day bans. */
export async function banAfterCancels(db: Executor, userId: number, now: number): Promise<void> {
  const cancels = await sql.cancelsWithinDay(db, userId, now);
  if (cancels > 0 && cancels % FIAT_CANCELS_BEFORE_BAN === 0)
    await recordFiatBan(db, userId, now, {
      rule: 'cancels',
      orderId: null,
      key: 'fiat.banReasonCancels',
      params: { count: cancels },
    });
}

/** After an unpaid order expired: its payer is banned. */
export async function banUnpaid(
  db: Executor,
  payer: number,
  orderId: number,
  windowMinutes: number,
  now: number,
): Promise<void> {
  await recordFiatBan(db, payer, now, {
    rule: 'unpaid',
    orderId,
    key: 'fiat.banReasonUnpaid',
    params: { id: orderId, minutes: windowMinutes },
  });
}
