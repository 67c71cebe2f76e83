import { Dec } from '@halyard/money';
import type { FiatAppealKind, FiatEvidence, FiatPayee, FiatPayType, FiatPriceType } from '@halyard/protocol';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput, checkRange, fractionDigitCount, isBlank, parseNumber } from './number.ts';

/** The payment methods of a fiat order (spec §1, §3): a bank transfer or WeChat Pay. */
export const FIAT_PAY_METHODS: readonly FiatPayType[] = ['bank', 'wechat'];
export type FiatPayMethod = FiatPayType;

export function isFiatPayMethod(value: string): value is FiatPayMethod {
  return (FIAT_PAY_METHODS as readonly string[]).includes(value);
}

/** Fiat currencies paid by IBAN (SEPA): a bank payee in one of them needs an IBAN (spec §5 "IBAN prompted"). */
export const IBAN_FIATS: readonly string[] = ['EUR'];

/** Fiat amounts are written with at most 2 decimals (spec §9: local-currency values 2). */
export const FIAT_DECIMALS = 2;

export const EMPTY_FIAT_PAYEE: FiatPayee = {
  payeeName: '',
  cardNumber: '',
  bank: '',
  branch: '',
  accountType: '',
  bankAddress: '',
  swift: '',
  iban: '',
  remark: '',
  wechatAccount: '',
  wechatCode: '',
};

/**
 * ISO 13616 IBAN check: two letters, two check digits, up to 30 letters or
 * digits (spaces allowed between groups), and the whole moved round and read
 * as a number leaves 1 modulo 97.
 */
export function isValidIban(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** A SWIFT/BIC code: 4 letters of bank, 2 of country, 2 of place, optionally 3 of branch. */
export function isValidSwift(text: string): boolean {
  return /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(text.trim().toUpperCase());
}

/**
 * Spec §5 "Fiat buy/sell", per method, first failure wins. Bank: payee name,
 * then the card number (or, for an IBAN currency, the IBAN, checked), then
 * the bank; a SWIFT code, when given, must be one. WeChat: payee name, WeChat
 * account and the uploaded pay code.
 */
export function checkFiatPayee(method: FiatPayMethod, fiat: string, payee: FiatPayee): RuleError | null {
  if (isBlank(payee.payeeName)) return ruleError('fiat.payeeNameRequired');
  if (method === 'wechat') {
    if (isBlank(payee.wechatAccount)) return ruleError('fiat.wechatAccountRequired');
    return isBlank(payee.wechatCode) ? ruleError('fiat.wechatCodeRequired') : null;
  }
  if (IBAN_FIATS.includes(fiat)) {
    if (isBlank(payee.iban)) return ruleError('fiat.ibanRequired');
    if (!isValidIban(payee.iban)) return ruleError('fiat.ibanInvalid');
  } else {
    if (isBlank(payee.cardNumber)) return ruleError('fiat.cardNumberRequired');
    if (!/^\d{8,30}$/.test(payee.cardNumber.replace(/\s+/g, ''))) return ruleError('fiat.cardNumberInvalid');
  }
  if (isBlank(payee.bank)) return ruleError('fiat.bankRequired');
  if (!isBlank(payee.swift) && !isValidSwift(payee.swift)) return ruleError('fiat.swiftInvalid');
  return null;
}

/**
 * The fiat amount of one order: a positive number with at most 2 decimals,
 * within the ad's single-order minimum and maximum (spec §5).
 */
export function checkFiatAmount(amount: string, min: string, max: string): RuleError | null {
  const error = checkPositiveInput(amount, 'amount', { decimals: FIAT_DECIMALS });
  if (error !== null) return error;
  return checkRange(Dec.parse(amount), min, max);
}

/** The payment screenshot is required before an order is marked paid (spec §5). */
export function checkPayScreenshot(url: string | null | undefined): RuleError | null {
  return isBlank(url) ? ruleError('fiat.screenshotRequired') : null;
}

/**
 * Spec §4, §9: the payer has 20 minutes to pay, or the order is cancelled and
 * must be re-applied. Issue 16 item 1: a merchant may set an ad's own window
 * within these bounds; an order keeps the window of the ad it was made on.
 */
export const FIAT_PAY_WINDOW_MINUTES = { min: 10, default: 20, max: 60 } as const;
export const FIAT_PAY_WINDOW_MS = FIAT_PAY_WINDOW_MINUTES.default * 60_000;

/** An ad's payment window in whole minutes, within FIAT_PAY_WINDOW_MINUTES. */
export function checkFiatPayWindow(minutes: number): RuleError | null {
  const { min, max } = FIAT_PAY_WINDOW_MINUTES;
  return Number.isInteger(minutes) && minutes >= min && minutes <= max
    ? null
    : ruleError('fiat.payWindowInvalid', { min, max });
}

/** An ad's free-text terms (issue 16 item 1): plain text, shown as text (never HTML), at most this long. */
export const FIAT_AD_TERMS_MAX_CHARS = 500;

export function checkFiatAdTermsText(terms: string): RuleError | null {
  return [...terms].length > FIAT_AD_TERMS_MAX_CHARS
    ? ruleError('fiat.adTermsTooLong', { max: FIAT_AD_TERMS_MAX_CHARS })
    : null;
}

/**
 * An ad's payment methods (issue 16 item 1): at least one, each method at
 * most once, each with its payee details complete for the ad's fiat.
 */
export function checkFiatAdMethods(
  fiat: string,
  methods: readonly { payType: FiatPayMethod; payee: FiatPayee }[],
): RuleError | null {
  if (methods.length === 0) return ruleError('fiat.adMethodRequired');
  if (new Set(methods.map((method) => method.payType)).size !== methods.length)
    return ruleError('fiat.adMethodRepeated');
  for (const method of methods) {
    const error = checkFiatPayee(method.payType, fiat, method.payee);
    if (error !== null) return error;
  }
  return null;
}

/** Either party may appeal an unpaid order in the last 5 minutes of its window (a payment sent, not yet marked). */
export const FIAT_APPEAL_BEFORE_EXPIRY_MS = 5 * 60_000;

/** A buyer's cancellations within a day that set a ban (the third one bites; AMENDMENTS A6). */
export const FIAT_CANCELS_BEFORE_BAN = 3;

/**
 * The ban ladder (AMENDMENTS A6, issue 16): each further ban within a day
 * lasts longer, 15 min → 30 min → 1 h → 4 h → the rest of the UTC day (at
 * least 4 h). The user sees this ladder before it bites.
 */
export const FIAT_BAN_LADDER_MINUTES: readonly number[] = [15, 30, 60, 240];
const DAY_MS = 86_400_000;

/** When a ban that starts at `startsAt` ends, given how many bans the user already had within the last day. */
export function fiatBanEnd(earlierBans: number, startsAt: number): number {
  const minutes = FIAT_BAN_LADDER_MINUTES[earlierBans];
  if (minutes !== undefined) return startsAt + minutes * 60_000;
  const longest = FIAT_BAN_LADDER_MINUTES[FIAT_BAN_LADDER_MINUTES.length - 1]! * 60_000;
  const endOfDay = (Math.floor(startsAt / DAY_MS) + 1) * DAY_MS;
  return Math.max(endOfDay, startsAt + longest);
}

/** The coin amount an ad offers (set when published, raised or lowered later): positive, 8 decimals. */
export function checkFiatAdAvailable(available: string): RuleError | null {
  return checkPositiveInput(available, 'amount', { decimals: 8 });
}

/** A floating ad's premium over the index, in percent, lies within ± this (issue 16 item 1). */
export const FIAT_PREMIUM_MAX_PERCENT = '20';
/** A premium is typed with at most this many decimals (0.01 %). */
const PREMIUM_DECIMALS = 2;

/**
 * A floating ad's price: the index price (fiat per coin) × (1 + premium %),
 * floored to the fiat's decimals. One rule for the server's refresh and the
 * ad form's preview.
 */
export function fiatFloatingPrice(index: Dec, premiumPercent: string): Dec {
  return index.add(index.percent(Dec.parse(premiumPercent))).floorTo(FIAT_DECIMALS);
}

/** A premium in percent: a number, 2 decimals, within ± FIAT_PREMIUM_MAX_PERCENT. */
export function checkFiatPremium(premium: string): RuleError | null {
  if (isBlank(premium)) return ruleError('fiat.premiumRequired');
  const value = parseNumber(premium);
  if (value === null || fractionDigitCount(premium) > PREMIUM_DECIMALS)
    return ruleError('fiat.premiumInvalid');
  const max = Dec.parse(FIAT_PREMIUM_MAX_PERCENT);
  if (value.abs().gt(max)) return ruleError('fiat.premiumOutOfRange', { max: FIAT_PREMIUM_MAX_PERCENT });
  return null;
}

/**
 * An ad's terms (issue 16 item 1): a positive fixed price or a floating
 * premium, single-order limits in fiat (2 decimals, min ≤ max) and a
 * positive coin amount the ad may trade.
 */
export function checkFiatAdTerms(input: {
  priceType: FiatPriceType;
  price: string;
  premium: string;
  min: string;
  max: string;
  available: string;
}): RuleError | null {
  const error =
    (input.priceType === 'floating'
      ? checkFiatPremium(input.premium)
      : checkPositiveInput(input.price, 'price', { decimals: 8 })) ??
    checkPositiveInput(input.min, 'amount', { decimals: FIAT_DECIMALS }) ??
    checkPositiveInput(input.max, 'amount', { decimals: FIAT_DECIMALS }) ??
    checkFiatAdAvailable(input.available);
  if (error !== null) return error;
  return Dec.parse(input.min).gt(Dec.parse(input.max)) ? ruleError('fiat.limitsInverted') : null;
}

/**
 * The appeal kinds each party may file (issue 16 item 5): the buyer paid and
 * waits for the coin; the seller waits for the right payment from the right
 * account. Either may describe something else.
 */
export const FIAT_APPEAL_KINDS: Readonly<Record<'buyer' | 'seller', readonly FiatAppealKind[]>> = {
  buyer: ['paidNotReleased', 'other'],
  seller: ['notReceived', 'wrongAmount', 'thirdPartyPayment', 'other'],
};

/**
 * The evidence each appeal kind needs, in the order support reads it: one
 * table for the order page's appeal sheet and the operator's appeal queue.
 */
const FIAT_APPEAL_EVIDENCE: ReadonlyMap<FiatAppealKind, readonly FiatEvidence[]> = new Map<
  FiatAppealKind,
  readonly FiatEvidence[]
>([
  ['paidNotReleased', ['paymentScreenshot', 'payerAccountName', 'paymentTime', 'transactionReference']],
  ['notReceived', ['bankStatement', 'paymentTime']],
  ['wrongAmount', ['bankStatement', 'amountReceived', 'paymentTime']],
  ['thirdPartyPayment', ['bankStatement', 'payerAccountName']],
  ['other', ['description']],
]);

/** The evidence checklist of an appeal kind. */
export function fiatAppealEvidence(kind: FiatAppealKind): readonly FiatEvidence[] {
  return FIAT_APPEAL_EVIDENCE.get(kind) ?? [];
}

/** An appeal: a kind the party may file (checked against client input, prototype-safe) and a description. */
export function checkFiatAppeal(role: 'buyer' | 'seller', kind: string, reason: string): RuleError | null {
  if (!FIAT_APPEAL_KINDS[role].some((allowed) => allowed === kind))
    return ruleError('fiat.appealKindInvalid');
  return isBlank(reason) ? ruleError('fiat.appealReasonRequired') : null;
}
