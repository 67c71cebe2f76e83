import {
  CYCLE_CHART_DEFAULT_PERIOD_INDEX,
  KLINE_HISTORY_COUNT,
  KLINE_PERIODS,
  type KlinePeriod,
} from '@halyard/rules';
import { type Chart, dispose, init } from 'klinecharts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/http.ts';
import { live } from '../../shared/live.ts';
import { useChartLanguage } from '../market/chart-language.ts';
import { CHART_OPTIONS } from '../market/chart-styles.ts';
import { parseSeries } from '../market/kline.ts';
import { type CyclePair, onPairPush } from './api.ts';

/** The chips offered on the cycle chart: bar periods only (the minute line belongs to the full chart). */
const CHART_PERIODS = KLINE_PERIODS.filter((period) => period.type === 0 && period.minutes <= 60);
const DEFAULT_PERIOD = KLINE_PERIODS[CYCLE_CHART_DEFAULT_PERIOD_INDEX];

/**
 * The cycle K-line (spec §2): history first, then the live bars of the
 * subscribed period (spec §2: history must be loaded before live updates).
 */
export function CycleKline({ pair, pricePrecision }: { pair: CyclePair; pricePrecision: number }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const [period, setPeriod] = useState<KlinePeriod>(DEFAULT_PERIOD ?? KLINE_PERIODS[4]);

  useEffect(() => {
    if (!element.current) return;
    chart.current = init(element.current, CHART_OPTIONS);
    return () => {
      if (element.current) dispose(element.current);
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setPriceVolumePrecision(pricePrecision, 2);
  }, [pricePrecision]);

  useChartLanguage(chart, pricePrecision);

  useEffect(() => {
    let loaded = false;
    let cancelled = false;
    const key = `${pair.maincoin}_${pair.tradcoin}_cycle_${period.minutes}`;
    live().subscribe(key);
    api
      .get<{ series: string[] }>(
        '/cycle/kline',
        {
          pairname: `${pair.tradcoin}/${pair.maincoin}`,
          type: period.type,
          mine: period.minutes,
          count: KLINE_HISTORY_COUNT,
        },
        { quiet: true },
      )
      .then((answer) => {
        if (cancelled) return;
        chart.current?.applyNewData(parseSeries(answer.series));
        loaded = true;
      })
      .catch(() => undefined);
    const stop = onPairPush(pair, (push) => {
      if (!loaded || push.type !== 'kline' || push.mine !== period.minutes) return;
      for (const bar of parseSeries(push.data.series)) chart.current?.updateData(bar);
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [pair, period]);

  return (
    <section className="hy-cycle-chart">
      <div className="hy-chips hy-chips-row" role="tablist" aria-label={t('cycle.period')}>
        {CHART_PERIODS.map((option) => (
          <button
            key={option.id}
            type="button"
            role="tab"
            aria-selected={option.id === period.id}
            className={option.id === period.id ? 'hy-chip active' : 'hy-chip'}
            onClick={() => setPeriod(option)}
          >
            {t(`cycle.period.${option.id}`)}
          </button>
        ))}
      </div>
      <div ref={element} data-testid="cycle-kline" style={{ height: 260 }} />
    </section>
  );
}
