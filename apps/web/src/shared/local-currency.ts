import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { useQuery } from '@tanstack/react-query';
import { INTL_TAGS } from '../i18n/locale.ts';
import { formatMoney } from './format.ts';
import { api } from './http.ts';

/**
 * The local currency each language reads its estimates in (spec §2: home
 * overview, balances total, cycle header), as Binance and OKX users expect.
 */
export const LOCAL_CURRENCY: Record<Locale, string> = {
  cn: 'CNY',
  tw: 'TWD',
  en: 'USD',
  jp: 'JPY',
  ko: 'KRW',
  tr: 'TRY',
  vi: 'VND',
  id: 'IDR',
  ru: 'RUB',
};

/** Spec §3 Rate: what one USDT is worth in `coin`, and the currency's sign. */
export interface Rate {
  symbol: string;
  price: string;
  coin: string;
}

/** What a USDT figure is worth at the rate: usdt × rate, exact; null until the rate is known. */
export function toLocal(usdt: string | null | undefined, rate: Rate | undefined): string | null {
  if (!rate) return null;
  return (Dec.tryParse(String(usdt ?? '')) ?? Dec.ZERO).mul(Dec.tryParse(rate.price) ?? Dec.ZERO).toString();
}

export interface SignPlace {
  after: boolean;
  /** What stands between sign and amount: nothing, or a no-break space. */
  gap: string;
}

/**
 * Where each language writes its own currency's sign, as Intl knows it
 * (local-currency.test.tsx compares the two, so this cannot drift): after
 * the amount ("1,00 ₽") or before ("¥1", "Rp 1,00"), with or without a
 * space. A table, not Intl: the first Intl formatter a page creates costs
 * 25–80 ms of main thread, which the home page paid on its first estimate.
 */
export const SIGN_PLACES: Record<Locale, SignPlace> = {
  cn: { after: false, gap: '' },
  tw: { after: false, gap: '' },
  en: { after: false, gap: '' },
  jp: { after: false, gap: '' },
  ko: { after: false, gap: '' },
  tr: { after: false, gap: '' },
  vi: { after: true, gap: '\u00a0' },
  id: { after: false, gap: '\u00a0' },
  ru: { after: true, gap: '\u00a0' },
};

const otherSignPlaces = new Map<string, SignPlace>();

/** The sign's place from the table, or from Intl for a currency not the language's own. */
function signPlace(locale: Locale, currency: string): SignPlace {
  if (currency === LOCAL_CURRENCY[locale]) return SIGN_PLACES[locale];
  const key = `${locale}:${currency}`;
  const place = otherSignPlaces.get(key) ?? signPlaceFromIntl(locale, currency);
  otherSignPlaces.set(key, place);
  return place;
}

/** Where Intl puts `currency`'s sign in the language; first for a currency Intl does not know. */
export function signPlaceFromIntl(locale: Locale, currency: string): SignPlace {
  try {
    const parts = new Intl.NumberFormat(INTL_TAGS[locale], { style: 'currency', currency }).formatToParts(1);
    const sign = parts.findIndex((part) => part.type === 'currency');
    const integer = parts.findIndex((part) => part.type === 'integer');
    const between = parts.slice(Math.min(sign, integer) + 1, Math.max(sign, integer));
    return { after: sign > integer, gap: between.some((part) => /\s/.test(part.value)) ? '\u00a0' : '' };
  } catch {
    // Not an ISO currency Intl knows: the sign goes first.
    return { after: false, gap: '' };
  }
}

/**
 * "≈ ¥7.20", "≈ 9 265 180,80 ₽": the estimate with 2 decimals, floored
 * (spec §9), and the server's sign where the language puts it (a no-break
 * space keeps sign and amount on one line); "≈ --" without a rate.
 */
export function formatLocal(usdt: string | null | undefined, rate: Rate | undefined, locale: Locale): string {
  const value = toLocal(usdt, rate);
  if (value === null || !rate) return '≈ --';
  const amount = formatMoney(value, DISPLAY_PRECISION.localCurrency, locale);
  const { after, gap } = signPlace(locale, rate.coin);
  return after ? `≈ ${amount}${gap}${rate.symbol}` : `≈ ${rate.symbol}${gap}${amount}`;
}

/**
 * The rate of the language's local currency, from `/account/getExchangeRateByCoin`
 * (spec §7; the server's demo table until a feed is configured). Kept a minute;
 * a failure shows no toast, the estimates just read "≈ --".
 */
export function useLocalRate(locale: Locale) {
  const currency = LOCAL_CURRENCY[locale];
  return useQuery({
    queryKey: ['rate', currency],
    queryFn: () => api.get<Rate>('/account/getExchangeRateByCoin', { coin: currency }, { quiet: true }),
    staleTime: 60_000,
  });
}

/**
 * Formats USDT figures as local-currency estimates ("≈ ¥7.20") in the
 * language's currency. Any screen showing a fiat estimate uses this, e.g.
 * `const local = useLocalValue(locale); local(row.price)`.
 */
export function useLocalValue(locale: Locale): (usdt: string | null | undefined) => string {
  const rate = useLocalRate(locale).data;
  return (usdt) => formatLocal(usdt, rate, locale);
}
