import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { useQuery } from '@tanstack/react-query';
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

/** "≈ ¥7.20": the estimate with the currency's sign and 2 decimals, floored (spec §9); "≈ --" without a rate. */
export function formatLocal(usdt: string | null | undefined, rate: Rate | undefined, locale: Locale): string {
  const value = toLocal(usdt, rate);
  if (value === null || !rate) return '≈ --';
  return `≈ ${rate.symbol}${formatMoney(value, DISPLAY_PRECISION.localCurrency, locale)}`;
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
