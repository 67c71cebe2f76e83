import type { MarketKind, ServerPush } from '@halyard/protocol';
import { subscriptionKey } from '@halyard/protocol';
import { KLINE_HISTORY_COUNT, KLINE_PAGE_SIZE, KLINE_PERIODS, type KlinePeriod } from '@halyard/rules';
import { ActionSheet } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { type CandleType, type Chart, dispose, init, type KLineData } from 'klinecharts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';
import { useChartLanguage } from './chart-language.ts';
import { AREA_STYLE, CHART_OPTIONS } from './chart-styles.ts';
import { registerCustomIndicators } from './indicators.ts';
import { parseSeries } from './kline.ts';

export interface ChartPair {
  tradcoin: string;
  maincoin: string;
}

/** Spec §2: quick periods, then the rest in a dropdown. */
const QUICK = ['line', '1m', '15m', '1h'] as const;
const MORE = ['5m', '30m', '4h', '1d', '1w'] as const;
export const MAIN_INDICATORS = ['MA', 'BOLL', 'BBI', 'MIKE', 'PBX', 'ENE'] as const;
type MainIndicator = (typeof MAIN_INDICATORS)[number];
const CANDLE_PANE = 'candle_pane';

function periodOf(id: KlinePeriod['id']): KlinePeriod {
  return KLINE_PERIODS.find((period) => period.id === id) ?? KLINE_PERIODS[3];
}

function isPush(message: unknown): message is ServerPush {
  return typeof message === 'object' && message !== null && 'type' in message && 'data' in message;
}

function fetchBars(kind: MarketKind, pair: ChartPair, period: KlinePeriod, count: number, date: number) {
  return api
    .get<{ series: string[] }>(
      `/${kind}/kline`,
      { pairname: `${pair.tradcoin}/${pair.maincoin}`, type: period.type, mine: period.minutes, count, date },
      { quiet: true },
    )
    .then((answer) => parseSeries(answer.series));
}

/**
 * The full K-line of market details (spec §2): time-share line or candles,
 * a main indicator and VOL. History is loaded first; live bars of the period
 * are applied only after it (earlier pushes would be overwritten or misplaced).
 * Scrolling to the left edge pages older bars with `date`.
 */
export function KlineChart({
  kind,
  pair,
  pricePrecision,
}: {
  kind: MarketKind;
  pair: ChartPair;
  pricePrecision: number;
}) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const [periodId, setPeriodId] = useState<KlinePeriod['id']>('15m');
  const [indicator, setIndicator] = useState<MainIndicator>('MA');
  const [sheet, setSheet] = useState<'period' | 'indicator' | null>(null);
  const period = periodOf(periodId);

  useEffect(() => {
    if (!element.current) return;
    registerCustomIndicators();
    const created = init(element.current, CHART_OPTIONS);
    created?.createIndicator('VOL', false, { height: 80 });
    chart.current = created;
    return () => {
      if (element.current) dispose(element.current);
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setPriceVolumePrecision(pricePrecision, 4);
  }, [pricePrecision]);

  useChartLanguage(chart, pricePrecision);

  useEffect(() => {
    const current = chart.current;
    current?.createIndicator(indicator, false, { id: CANDLE_PANE });
    return () => current?.removeIndicator(CANDLE_PANE, indicator);
  }, [indicator]);

  useEffect(() => {
    // The time-share view hides the candles and draws the closes as an area.
    chart.current?.setStyles({
      candle: { type: (period.type === -1 ? 'area' : 'candle_solid') as CandleType, area: AREA_STYLE },
    });
  }, [period.type]);

  useEffect(() => {
    let loaded = false;
    let cancelled = false;
    const key = subscriptionKey({ kind, ...pair, mine: period.minutes });
    live().subscribe(key);
    const pageSize = period.type === -1 ? KLINE_PAGE_SIZE.minute : KLINE_PAGE_SIZE.history;
    chart.current?.loadMore((timestamp) => {
      if (timestamp === null) return;
      fetchBars(kind, pair, period, pageSize, timestamp)
        .then((bars) => {
          if (!cancelled) chart.current?.applyMoreData(bars, bars.length > 0);
        })
        .catch(() => undefined);
    });
    fetchBars(kind, pair, period, KLINE_HISTORY_COUNT, 0)
      .then((bars: KLineData[]) => {
        if (cancelled) return;
        chart.current?.applyNewData(bars, bars.length > 0);
        loaded = true;
      })
      .catch(() => undefined);
    const stop = live().onMessage((message) => {
      if (!loaded || !isPush(message) || message.type !== 'kline' || message.key !== key) return;
      for (const bar of parseSeries(message.data.series)) chart.current?.updateData(bar);
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [kind, pair, period]);

  const moreActive = (MORE as readonly string[]).includes(periodId);
  return (
    <section className="hy-kline">
      <div className="hy-kline-bar" role="tablist" aria-label={t('kline.period')}>
        {QUICK.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={id === periodId}
            className={id === periodId ? 'active' : ''}
            onClick={() => setPeriodId(id)}
          >
            {t(`kline.period.${id}`)}
          </button>
        ))}
        <button
          type="button"
          className={moreActive ? 'active' : ''}
          data-testid="more-periods"
          onClick={() => setSheet('period')}
        >
          {moreActive ? t(`kline.period.${periodId}`) : t('kline.more')} <DownFill fontSize={8} />
        </button>
        <button type="button" data-testid="main-indicator" onClick={() => setSheet('indicator')}>
          {indicator} <DownFill fontSize={8} />
        </button>
      </div>
      <div ref={element} className="hy-kline-canvas" data-testid="kline-chart" />
      <ActionSheet
        visible={sheet !== null}
        onClose={() => setSheet(null)}
        cancelText={t('common.cancel')}
        actions={
          sheet === 'indicator'
            ? MAIN_INDICATORS.map((name) => ({
                key: name,
                text: name,
                onClick: () => {
                  setIndicator(name);
                  setSheet(null);
                },
              }))
            : MORE.map((id) => ({
                key: id,
                text: t(`kline.period.${id}`),
                onClick: () => {
                  setPeriodId(id);
                  setSheet(null);
                },
              }))
        }
      />
    </section>
  );
}
