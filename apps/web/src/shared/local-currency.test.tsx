// @vitest-environment happy-dom
import { LOCALES } from '@halyard/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  formatLocal,
  LOCAL_CURRENCY,
  SIGN_PLACES,
  signPlaceFromIntl,
  toLocal,
  useLocalValue,
} from './local-currency.ts';

const asked = vi.hoisted(() => [] as unknown[]);
const DEMO: Record<string, { symbol: string; price: string }> = {
  JPY: { symbol: '¥', price: '151' },
  RUB: { symbol: '₽', price: '96' },
};

vi.mock('./http.ts', () => ({
  api: {
    get: async (url: string, query: { coin: string }) => {
      asked.push({ url, coin: query.coin });
      const rate = DEMO[query.coin];
      if (!rate) throw new Error('no rate');
      return { ...rate, coin: query.coin };
    },
  },
}));

afterEach(() => {
  cleanup();
  asked.length = 0;
});

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('local-currency estimates', () => {
  it('give each language a currency of its own', () => {
    expect(new Set(LOCALES.map((locale) => LOCAL_CURRENCY[locale])).size).toBe(LOCALES.length);
    expect([LOCAL_CURRENCY.cn, LOCAL_CURRENCY.jp, LOCAL_CURRENCY.ru, LOCAL_CURRENCY.en]).toEqual([
      'CNY',
      'JPY',
      'RUB',
      'USD',
    ]);
  });

  it('are usdt × rate, exact, shown floored to 2 decimals with the sign', () => {
    const cny = { symbol: '¥', price: '7.2', coin: 'CNY' };
    expect(toLocal('0.1', cny)).toBe('0.72');
    expect(toLocal('1', undefined)).toBeNull();
    // 0.0199 × 7.2 = 0.14328 → 0.14, never rounded up.
    expect(formatLocal('0.0199', cny, 'cn')).toBe('≈ ¥0.14');
  });

  it('put the sign where the language writes it', () => {
    // Russian and Vietnamese write it after the amount, the others before.
    expect(formatLocal('1234.5', { symbol: '₽', price: '96', coin: 'RUB' }, 'ru')).toMatch(
      /^≈ 118\s512,00\u00a0₽$/,
    );
    expect(formatLocal('1', { symbol: '₫', price: '25400', coin: 'VND' }, 'vi')).toBe('≈ 25.400,00\u00a0₫');
    expect(formatLocal('1', { symbol: '₺', price: '34.2', coin: 'TRY' }, 'tr')).toBe('≈ ₺34,20');
    expect(formatLocal('1', { symbol: 'Rp', price: '15900', coin: 'IDR' }, 'id')).toBe('≈ Rp\u00a015.900,00');
    expect(formatLocal('1', undefined, 'en')).toBe('≈ --');
  });

  it.each(LOCALES)("have Intl's sign place for %s's own currency in the table", (locale) => {
    expect(SIGN_PLACES[locale]).toEqual(signPlaceFromIntl(locale, LOCAL_CURRENCY[locale]));
  });

  it('ask Intl where the sign goes for a currency not the language’s own', () => {
    // en-US writes a code without its own sign first, then a no-break space: "RUB 1.00".
    expect(formatLocal('1', { symbol: 'RUB', price: '96', coin: 'RUB' }, 'en')).toBe('≈ RUB\u00a096.00');
    expect(formatLocal('1', { symbol: '$', price: '1', coin: 'USD' }, 'ru')).toBe('≈ 1,00\u00a0$');
  });

  it('ask the rate of the language’s currency and format with it', async () => {
    const { result } = renderHook(() => useLocalValue('jp'), { wrapper });
    expect(result.current('2')).toBe('≈ --');
    await waitFor(() => expect(result.current('2')).toBe('≈ ¥302.00'));
    expect(asked).toEqual([{ url: '/account/getExchangeRateByCoin', coin: 'JPY' }]);
  });

  it('read "≈ --" when the server has no rate', async () => {
    const { result } = renderHook(() => useLocalValue('ko'), { wrapper });
    await waitFor(() => expect(asked).toEqual([{ url: '/account/getExchangeRateByCoin', coin: 'KRW' }]));
    expect(result.current('2')).toBe('≈ --');
  });
});
