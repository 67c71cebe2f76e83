import { Dec } from '@halyard/money';
import {
  BANK_CARD_LENGTH,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_MB,
  PASSWORD_LENGTH,
  PAY_PASSWORD_LENGTH,
  POSITIVE_NUMBER_DECIMALS,
  PRICE_DECIMALS,
  PRICE_INTEGER_DIGITS,
  SHORT_ADDRESS,
  TICKET_CONTENT_LENGTH,
  USERNAME_LENGTH,
} from './constants.ts';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput, isBlank, isIntegerText, parseNumber } from './number.ts';

/** A calendar day, passed in so the rules never read the clock. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** Checks a text field against a pattern: blank gives `<name>Required`, a mismatch `<name>Invalid`. */
function checkPattern(value: string, pattern: RegExp, name: string): RuleError | null {
  if (isBlank(value)) return ruleError(`rules.${name}Required`);
  return pattern.test(value) ? null : ruleError(`rules.${name}Invalid`);
}

/** A required free-text field; `field` is its label in the user's language, shown as `{field}`. */
export function checkRequired(value: string | undefined | null, field: string): RuleError | null {
  return isBlank(value) ? ruleError('rules.required', { field }) : null;
}

const USERNAME_PATTERN = new RegExp(
  `^[A-Za-z][A-Za-z0-9_]{${USERNAME_LENGTH.min - 1},${USERNAME_LENGTH.max - 1}}$`,
);

export function checkUsername(value: string): RuleError | null {
  return checkPattern(value, USERNAME_PATTERN, 'username');
}

/** "13812345678" → "138****5678"; anything that is not 11 digits is shown as it is. */
export function maskPhone(value: string): string {
  if (!/^\d{11}$/.test(value)) return value;
  return `${value.slice(0, 3)}****${value.slice(7)}`;
}

const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,6}$/;

export function checkEmail(value: string): RuleError | null {
  return checkPattern(value, EMAIL_PATTERN, 'email');
}

const PASSWORD_PATTERN = new RegExp(
  `^(?=.*[A-Za-z])(?=.*\\d)[A-Za-z\\d]{${PASSWORD_LENGTH.min},${PASSWORD_LENGTH.max}}$`,
);

/** Login, old, new and fund passwords alike. */
export function checkPassword(value: string): RuleError | null {
  return checkPattern(value, PASSWORD_PATTERN, 'password');
}

export function checkPasswordsMatch(first: string, second: string): RuleError | null {
  return first === second ? null : ruleError('rules.passwordsMismatch');
}

const PAY_PASSWORD_PATTERN = new RegExp(`^\\d{${PAY_PASSWORD_LENGTH}}$`);

export function checkPayPassword(value: string): RuleError | null {
  return checkPattern(value, PAY_PASSWORD_PATTERN, 'payPassword');
}

/** GB 11643-1999: weights of the first 17 digits and the check character for each sum mod 11. */
const ID_CARD_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CARD_CHECK_CHARS = '10X98765432';
/** No living holder was born before this year; earlier dates are typing errors. */
const ID_CARD_EARLIEST_YEAR = 1900;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function compareDays(a: CalendarDay, b: CalendarDay): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

function isValidBirthDate(birth: CalendarDay, today: CalendarDay | undefined): boolean {
  if (birth.year < ID_CARD_EARLIEST_YEAR || birth.month < 1 || birth.month > 12) return false;
  if (birth.day < 1 || birth.day > daysInMonth(birth.year, birth.month)) return false;
  return today === undefined || compareDays(birth, today) <= 0;
}

/** The birth date inside a card number: YYYYMMDD at positions 7-14 of 18, YYMMDD (19YY) at 7-12 of 15. */
function birthDateOf(card: string): CalendarDay {
  const digits = card.length === 18 ? card.slice(6, 14) : `19${card.slice(6, 12)}`;
  return {
    year: Number(digits.slice(0, 4)),
    month: Number(digits.slice(4, 6)),
    day: Number(digits.slice(6, 8)),
  };
}

function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (const [index, weight] of ID_CARD_WEIGHTS.entries()) sum += Number(first17[index]) * weight;
  return ID_CARD_CHECK_CHARS[sum % 11] ?? '';
}

/** Resident ID: 15 digits, or 17 digits and a check character (X in either case). */
export function checkIdCard(value: string, today?: CalendarDay): RuleError | null {
  if (isBlank(value)) return ruleError('rules.idCardRequired');
  if (!/^(?:\d{15}|\d{17}[\dXx])$/.test(value)) return ruleError('rules.idCardInvalid');
  if (!isValidBirthDate(birthDateOf(value), today)) return ruleError('rules.idCardBirthDate');
  if (value.length === 18 && idCardCheckChar(value.slice(0, 17)) !== value.slice(17).toUpperCase()) {
    return ruleError('rules.idCardChecksum');
  }
  return null;
}

/**
 * The one spelling of a valid card number that identifies a person: upper
 * case, and a 15-digit first-generation number as its 18-digit successor
 * (century 19 inserted, check character appended), so both spellings of one
 * person's number compare equal. Call it only on a number checkIdCard passed.
 */
export function normaliseIdCard(value: string): string {
  const card = value.trim().toUpperCase();
  if (card.length !== 15) return card;
  const first17 = `${card.slice(0, 6)}19${card.slice(6)}`;
  return first17 + idCardCheckChar(first17);
}

const BANK_CARD_PATTERN = new RegExp(`^\\d{${BANK_CARD_LENGTH.min},${BANK_CARD_LENGTH.max}}$`);

export function checkBankCard(value: string): RuleError | null {
  return checkPattern(value, BANK_CARD_PATTERN, 'bankCard');
}

/** A number above zero with at most 8 decimals. */
export function checkPositiveNumber(value: string): RuleError | null {
  return checkPositiveInput(value, 'number', { decimals: POSITIVE_NUMBER_DECIMALS });
}

/** A whole number, zero allowed. */
export function checkInteger(value: string): RuleError | null {
  if (isBlank(value)) return ruleError('rules.numberRequired');
  return isIntegerText(value) ? null : ruleError('rules.integerInvalid');
}

/** At most 13 integer digits and 6 decimals, and not zero. */
export function checkPrice(value: string): RuleError | null {
  return checkPositiveInput(value, 'number', {
    integerDigits: PRICE_INTEGER_DIGITS,
    decimals: PRICE_DECIMALS,
  });
}

/** The spec's "correct number": numeric and greater than 0, any precision. */
export function checkCorrectNumber(value: string): RuleError | null {
  return checkPositiveInput(value, 'number');
}

/** Amounts are floored, never rounded; a non-number floors to 0. Always `digits` decimals. */
export function floorAmount(value: string, digits: number): string {
  return (parseNumber(value) ?? Dec.ZERO).toFixed(digits);
}

export function checkTicket(ticket: { title: string; content: string }): RuleError | null {
  if (isBlank(ticket.title)) return ruleError('rules.ticketTitleRequired');
  if (isBlank(ticket.content)) return ruleError('rules.ticketContentRequired');
  // Characters, not UTF-16 units: a Chinese or emoji message counts what the user sees.
  const length = [...ticket.content].length;
  if (length < TICKET_CONTENT_LENGTH.min || length > TICKET_CONTENT_LENGTH.max) {
    return ruleError('rules.ticketContentLength', TICKET_CONTENT_LENGTH);
  }
  return null;
}

export function checkImageSize(bytes: number): RuleError | null {
  return bytes > IMAGE_MAX_BYTES ? ruleError('rules.imageTooLarge', { max: IMAGE_MAX_MB }) : null;
}

/** "0x1234567890abcdef" → "0x1234…cdef"; short text is shown whole. */
export function shortAddress(address: string): string {
  if (address.length <= SHORT_ADDRESS.head + SHORT_ADDRESS.tail) return address;
  return `${address.slice(0, SHORT_ADDRESS.head)}…${address.slice(-SHORT_ADDRESS.tail)}`;
}

export function checkTermsAgreed(agreed: boolean): RuleError | null {
  return agreed ? null : ruleError('rules.termsNotAgreed');
}
