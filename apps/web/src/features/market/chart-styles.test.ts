import { describe, expect, it } from 'vitest';
import { createI18n, showLocale } from '../../i18n/index.ts';
import { candleTooltipLegends, chartLocaleTexts } from './chart-styles.ts';

const BAR = {
  timestamp: Date.UTC(2026, 0, 2, 3, 4),
  open: 1234.5,
  high: 1300,
  low: 1200.25,
  close: 1250,
  volume: 1_238_567,
};

async function texts(locale: 'en' | 'cn' | 'ru') {
  const i18n = createI18n();
  await showLocale(i18n, locale);
  return chartLocaleTexts(i18n.t);
}

describe('candle tooltip', () => {
  it("titles the rows in the user's language through the chart's locale", async () => {
    // klinecharts words each row's title by the chart's locale.
    expect(candleTooltipLegends(BAR, 'en', 2).map((legend) => legend.title)).toEqual([
      'time',
      'open',
      'high',
      'low',
      'close',
      'volume',
    ]);
    expect(await texts('en')).toEqual({
      time: 'Time: ',
      open: 'Open: ',
      high: 'High: ',
      low: 'Low: ',
      close: 'Close: ',
      volume: 'Volume: ',
    });
    expect(await texts('cn')).toEqual({
      time: '时间：',
      open: '开：',
      high: '高：',
      low: '低：',
      close: '收：',
      volume: '成交量：',
    });
    const russian = await texts('ru');
    expect(Object.values(russian).every((title) => /[а-я]/iu.test(title))).toBe(true);
  });

  it("prints prices with the locale's marks and floors the shortened volume", () => {
    const english = candleTooltipLegends(BAR, 'en', 2);
    expect(english[1]?.value).toBe('1,234.50');
    expect(english[5]?.value).toBe('1.23M');
    const russian = candleTooltipLegends(BAR, 'ru', 2);
    expect(russian[1]?.value).toMatch(/^1\s234,50$/u);
    expect(russian[5]?.value).toMatch(/^1,23\s*млн$/u);
  });
});
