import type { FiatPayee } from '@halyard/protocol';
import { FIAT_PAY_METHODS } from '@halyard/rules';

/** Schema pieces the fiat routes share (users', merchants' and operators'). */
export const text = (maxLength: number, description?: string) => ({
  type: 'string',
  maxLength,
  ...(description ? { description } : {}),
});

export const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

export const USER = [{ token: [] }];

/** The rate limit of the routes that place orders or publish ads. */
export const orderRate = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export const coin = { type: 'string', pattern: '^[A-Z0-9]{1,20}$' };
export const fiat = { type: 'string', pattern: '^[A-Z]{3}$' };
export const payType = { type: 'string', enum: [...FIAT_PAY_METHODS] };
export const amount = text(40, 'Fiat amount to pay or receive, within the ad limits (2 decimals)');

/** The payee fields of spec §3 "Fiat order", each optional text (the rules say which a method needs). */
export const PAYEE_FIELDS = {
  payeeName: text(100),
  cardNumber: text(40),
  bank: text(100),
  branch: text(100),
  accountType: text(40),
  bankAddress: text(200),
  swift: text(20),
  iban: text(50),
  remark: text(200),
  wechatAccount: text(100),
  wechatCode: text(512, 'The url /user/img answered for the WeChat pay code'),
} as const;
export type PayeeBody = { [K in keyof typeof PAYEE_FIELDS]?: string };

/** The payee fields of a body, each empty when not given. */
export function payeeOf(body: PayeeBody): FiatPayee {
  return {
    payeeName: body.payeeName ?? '',
    cardNumber: body.cardNumber ?? '',
    bank: body.bank ?? '',
    branch: body.branch ?? '',
    accountType: body.accountType ?? '',
    bankAddress: body.bankAddress ?? '',
    swift: body.swift ?? '',
    iban: body.iban ?? '',
    remark: body.remark ?? '',
    wechatAccount: body.wechatAccount ?? '',
    wechatCode: body.wechatCode ?? '',
  };
}
