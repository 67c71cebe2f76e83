import { describe, expect, it } from 'vitest';
import { createI18n, showLocale } from '../../i18n/index.ts';
import { candleTooltipLegends } from './chart-styles.ts';

const BAR = {
  timestamp: Date.UTC(2026, 0, 2, 3, 4),
  open: 1234.5,
  high: 1300,
  low: 1200.25,
  close: 1250,
  volume: 1_238_567,
};

async function legends(locale: 'en' | 'cn' | 'ru') {
  const i18n = createI18n();
  await showLocale(i18n, locale);
  return candleTooltipLegends(BAR, i18n.t, locale, 2);
}

describe('candle tooltip', () => {
  it("labels the rows in the user's language", async () => {
    expect((await legends('en')).map((legend) => legend.title)).toEqual([
      'Time: ',
      'Open: ',
      'High: ',
      'Low: ',
      'Close: ',
      'Volume: ',
    ]);
    expect((await legends('cn')).map((legend) => legend.title)).toEqual([
      '时间：',
      '开：',
      '高：',
      '低：',
      '收：',
      '成交量：',
    ]);
  });

  it("prints prices with the locale's marks and floors the shortened volume", async () => {
    const english = await legends('en');
    expect(english[1]?.value).toBe('1,234.50');
    expect(english[5]?.value).toBe('1.23M');
    const russian = await legends('ru');
    expect(russian[1]?.value).toMatch(/^1\s234,50$/u);
    expect(russian[5]?.value).toMatch(/^1,23\s*млн$/u);
  });
});
