import type { Locale } from '@halyard/protocol';
import { type CandleTooltipCustomCallbackData, type Chart, registerLocale } from 'klinecharts';
import { type RefObject, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { candleTooltipLegends, chartLocaleTexts } from './chart-styles.ts';

/**
 * Keeps a chart in the user's language (issue 14): the language is registered
 * with klinecharts' locale API from the app's texts and the chart switched to
 * it, now and on every language change, and the candle tooltip prints its
 * values the locale's way. Call it after the effect that creates the chart.
 */
export function useChartLanguage(chart: RefObject<Chart | null>, pricePrecision: number): void {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  useEffect(() => {
    const current = chart.current;
    if (!current) return;
    registerLocale(locale, chartLocaleTexts(t));
    current.setLocale(locale);
    current.setStyles({
      candle: {
        tooltip: {
          custom: ({ current: bar }: CandleTooltipCustomCallbackData) =>
            candleTooltipLegends(bar, locale, pricePrecision),
        },
      },
    });
  }, [chart, t, locale, pricePrecision]);
}
