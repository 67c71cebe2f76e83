import type { Locale } from '@halyard/protocol';
import type { TFunction } from 'i18next';
import type { KLineData, Locales, TooltipLegend } from 'klinecharts';
import { INTL_TAGS } from '../../i18n/locale.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';

/** The app's fonts on the chart (a canvas cannot read CSS variables; klinecharts would fall back to serif). */
const FONT = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans", sans-serif';
const TEXT = { family: FONT, color: '#848e9c' };
const MARK = { text: { family: FONT } };

/** The dark chart of every K-line in the app: green up, red down, muted axes. */
export const CHART_STYLES = {
  grid: { horizontal: { color: '#2b3139' }, vertical: { color: '#2b3139' } },
  candle: {
    bar: {
      upColor: '#0ecb81',
      downColor: '#f6465d',
      upBorderColor: '#0ecb81',
      downBorderColor: '#f6465d',
      upWickColor: '#0ecb81',
      downWickColor: '#f6465d',
    },
    priceMark: { high: { textFamily: FONT }, low: { textFamily: FONT }, last: MARK },
    // klinecharts' default placeholder is the English "n/a".
    tooltip: { text: TEXT, defaultValue: '--' },
  },
  indicator: { tooltip: { text: TEXT, defaultValue: '--' } },
  xAxis: { tickText: TEXT },
  yAxis: { tickText: TEXT },
  crosshair: { horizontal: { text: MARK.text }, vertical: { text: MARK.text } },
};

/** Chart options: no "0.0{3}3" folding of small amounts (18 zeros never fit a tooltip anyway). */
export const CHART_OPTIONS = { styles: CHART_STYLES, decimalFoldThreshold: 18 };

/** The time-share line: the closes as an accent area. */
export const AREA_STYLE = {
  lineColor: '#f5a524',
  backgroundColor: [
    { offset: 0, color: 'rgba(245, 165, 36, 0.01)' },
    { offset: 1, color: 'rgba(245, 165, 36, 0.2)' },
  ],
};

/** A volume shortened the locale's way ("1.2M", "120万", "1,2 млн"), floored like every amount (spec §5). */
function formatVolume(volume: number, locale: Locale): string {
  return new Intl.NumberFormat(INTL_TAGS[locale], {
    notation: 'compact',
    maximumFractionDigits: 2,
    roundingMode: 'floor',
  }).format(volume);
}

/** The candle tooltip's rows, by the names klinecharts' locales give them. */
const TOOLTIP_ROWS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/**
 * The tooltip's row titles in the user's language, from the app's texts, as a
 * klinecharts locale: "Open: " in English, "开：" in Chinese, "Откр.: " in
 * Russian. (klinecharts itself knows only English and Chinese.)
 */
export function chartLocaleTexts(t: TFunction): Locales {
  const texts = Object.fromEntries(
    TOOLTIP_ROWS.map((row) => [row, t('kline.tooltip.title', { label: t(`kline.tooltip.${row}`) })]),
  );
  // The tooltip shows no change or turnover row, so those two titles are not needed.
  return texts as Locales;
}

/**
 * The candle tooltip's rows (for `candle.tooltip.custom`): titled by their
 * locale names, which the chart's locale (chartLocaleTexts) words in the
 * user's language, and with the locale's number marks, like the rest of the
 * app (klinecharts prints every number as "1,234.5").
 */
export function candleTooltipLegends(
  bar: KLineData,
  locale: Locale,
  pricePrecision: number,
): TooltipLegend[] {
  // Bars are parsed from the server's decimal strings, so toFixed gives back those digits.
  const price = (value: number) => formatMoney(value.toFixed(pricePrecision), pricePrecision, locale);
  const values: Record<(typeof TOOLTIP_ROWS)[number], string> = {
    time: formatDateTime(bar.timestamp, locale),
    open: price(bar.open),
    high: price(bar.high),
    low: price(bar.low),
    close: price(bar.close),
    volume: formatVolume(bar.volume ?? 0, locale),
  };
  return TOOLTIP_ROWS.map((row) => ({ title: row, value: values[row] }));
}
