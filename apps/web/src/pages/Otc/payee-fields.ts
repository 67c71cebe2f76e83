import type { FiatPayee, FiatPayType } from '@halyard/protocol';
import { IBAN_FIATS } from '@halyard/rules';

/** The payee fields a form asks for each method (spec §5); the IBAN replaces the card number for IBAN currencies. */
export function payeeFields(payType: FiatPayType, fiat: string): (keyof FiatPayee)[] {
  if (payType === 'wechat') return ['payeeName', 'wechatAccount', 'wechatCode'];
  const account: keyof FiatPayee = IBAN_FIATS.includes(fiat) ? 'iban' : 'cardNumber';
  return ['payeeName', account, 'bank', 'branch', 'swift'];
}
