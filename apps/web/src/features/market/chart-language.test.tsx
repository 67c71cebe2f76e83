// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { type CandleTooltipCustomCallbackData, type Chart, getSupportedLocales } from 'klinecharts';
import { useRef } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n, showLocale } from '../../i18n/index.ts';
import { useChartLanguage } from './chart-language.ts';

// Under Node, 'klinecharts' resolves to its UMD bundle, whose registerLocale export reads undefined; the app's bundle is the ES module.
// @ts-expect-error: the package's types describe its entry only, and this is the same module's ES build.
vi.mock('klinecharts', () => import('klinecharts/dist/index.esm.js'));

afterEach(cleanup);

/** What the hook asks of a chart, recorded: a canvas chart cannot be drawn here. */
function fakeChart() {
  const calls = { locales: [] as string[], tooltips: [] as unknown[] };
  const chart = {
    setLocale: (locale: string) => calls.locales.push(locale),
    setStyles: (styles: { candle: { tooltip: { custom: unknown } } }) =>
      calls.tooltips.push(styles.candle.tooltip.custom),
  };
  return { chart: chart as unknown as Chart, calls };
}

function Charted({ chart }: { chart: Chart }) {
  const ref = useRef<Chart | null>(chart);
  useChartLanguage(ref, 2);
  return null;
}

const BAR = {
  timestamp: Date.UTC(2026, 0, 2, 3, 4),
  open: 1234.5,
  high: 1300,
  low: 1200,
  close: 1250,
  volume: 10,
};

describe('useChartLanguage', () => {
  it("puts the chart in the user's language through klinecharts' locales, and follows a change", async () => {
    const i18n = createI18n();
    const { chart, calls } = fakeChart();
    render(
      <I18nextProvider i18n={i18n}>
        <Charted chart={chart} />
      </I18nextProvider>,
    );
    expect(calls.locales).toEqual(['en']);
    await act(() => showLocale(i18n, 'ru'));
    expect(calls.locales).toEqual(['en', 'ru']);
    expect(getSupportedLocales()).toEqual(expect.arrayContaining(['en', 'ru']));
    // The tooltip's rows are titled by locale names (worded by the chart's locale) and valued the Russian way.
    const custom = calls.tooltips.at(-1) as (
      data: CandleTooltipCustomCallbackData,
    ) => { title: string; value: string }[];
    const rows = custom({ prev: null, current: BAR, next: null });
    expect(rows.map((row) => row.title)).toEqual(['time', 'open', 'high', 'low', 'close', 'volume']);
    expect(rows[1]?.value).toMatch(/^1\s234,50$/u);
  });
});
