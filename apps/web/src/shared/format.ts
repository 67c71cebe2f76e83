import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { INTL_TAGS } from '../i18n/locale.ts';

interface Separators {
  group: string;
  decimal: string;
}

/**
 * Each language's digit-group and decimal marks, as Intl.NumberFormat gives
 * them for its INTL_TAGS locale (format.test.ts compares the two, so this
 * cannot drift). A table, not Intl: the first Intl formatter a page creates
 * loads the locale data, 25–80 ms of main thread that the home page paid on
 * its first price.
 */
export const SEPARATORS: Record<Locale, Separators> = {
  cn: { group: ',', decimal: '.' },
  tw: { group: ',', decimal: '.' },
  en: { group: ',', decimal: '.' },
  jp: { group: ',', decimal: '.' },
  ko: { group: ',', decimal: '.' },
  tr: { group: '.', decimal: ',' },
  vi: { group: '.', decimal: ',' },
  id: { group: '.', decimal: ',' },
  // A no-break space, so "1 234,50" stays on one line.
  ru: { group: '\u00a0', decimal: ',' },
};

function groupDigits(digits: string, group: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
}

/**
 * A money amount from its decimal string, floored to `digits` decimals
 * (spec §5: amounts are floored, never rounded; a non-number is 0), with the
 * locale's marks. Never goes through a JavaScript number.
 */
export function formatMoney(text: string | null | undefined, digits: number, locale: Locale): string {
  const value = Dec.tryParse(String(text ?? '')) ?? Dec.ZERO;
  const fixed = value.toFixed(digits);
  const negative = fixed.startsWith('-');
  const [whole = '0', fraction] = (negative ? fixed.slice(1) : fixed).split('.');
  const marks = SEPARATORS[locale];
  const body = groupDigits(whole, marks.group) + (fraction === undefined ? '' : marks.decimal + fraction);
  return negative ? `-${body}` : body;
}

/** A change in percent ("1.234" → "+1.23%"), floored to 2 decimals, signed. */
export function formatChange(text: string | null | undefined, locale: Locale): string {
  const value = Dec.tryParse(String(text ?? '')) ?? Dec.ZERO;
  const body = formatMoney(value.toString(), 2, locale);
  return `${value.isPositive() ? '+' : ''}${body}%`;
}

/** Up or flat is green, down is red (the design's colours). */
export function trendOf(text: string | null | undefined): 'up' | 'down' {
  return (Dec.tryParse(String(text ?? '')) ?? Dec.ZERO).isNegative() ? 'down' : 'up';
}

/**
 * A date and time (ms since epoch) in the user's locale and time zone; with
 * `seconds` to the second (the prices that settled a cycle order).
 */
export function formatDateTime(ms: number, locale: Locale, { seconds = false } = {}): string {
  return new Intl.DateTimeFormat(INTL_TAGS[locale], {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
  }).format(ms);
}

/** A time of day to the second, for lists of today's events (the cycle top orders). */
export function formatTime(ms: number, locale: Locale): string {
  return new Intl.DateTimeFormat(INTL_TAGS[locale], { timeStyle: 'medium' }).format(ms);
}

export function formatDate(ms: number, locale: Locale): string {
  return new Intl.DateTimeFormat(INTL_TAGS[locale], { dateStyle: 'medium' }).format(ms);
}
