import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { REFERRAL_TOKEN } from '@halyard/rules';
import { formatMoney } from '../../shared/format.ts';

/** Fees are kept to 8 decimals. */
const FEE_DIGITS = 8;

/**
 * What an order paid in fees: the part in the coin received and, with fee
 * deduction (issue 17), the part paid in HAL instead ("0.00001000 BTC + 0.50000000 HAL");
 * null before any fill.
 */
export function orderFeeText(
  order: { fee: string; feeCoin: string; feeHal: string },
  locale: Locale,
): string | null {
  const parts: string[] = [];
  if ((Dec.tryParse(order.fee) ?? Dec.ZERO).isPositive()) {
    parts.push(`${formatMoney(order.fee, FEE_DIGITS, locale)} ${order.feeCoin}`);
  }
  if ((Dec.tryParse(order.feeHal) ?? Dec.ZERO).isPositive()) {
    parts.push(`${formatMoney(order.feeHal, FEE_DIGITS, locale)} ${REFERRAL_TOKEN}`);
  }
  return parts.length === 0 ? null : parts.join(' + ');
}
