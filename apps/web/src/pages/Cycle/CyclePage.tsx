import type { CycleInfo, CyclePosition, Locale } from '@halyard/protocol';
import { CYCLE_RELOAD_DELAY_MS, checkClockDrift } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'antd-mobile';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  type CyclePair,
  DEFAULT_PAIR,
  placeOrder,
  positionById,
  useCycleInfo,
  useCycleSymbols,
  useHistory,
  usePositions,
  useServerOffset,
  useTopOrders,
} from '../../features/cycle/api.ts';
import { CycleKline } from '../../features/cycle/CycleKline.tsx';
import { secondsLeft } from '../../features/cycle/calc.ts';
import { PositionList, TopOrders } from '../../features/cycle/OrderLists.tsx';
import { PositionBox } from '../../features/cycle/PositionBox.tsx';
import { ResultPopup } from '../../features/cycle/ResultPopup.tsx';
import { pollSettled, refreshHistory } from '../../features/cycle/result.ts';
import { TradePopup, type TradeRequest } from '../../features/cycle/TradePopup.tsx';
import { ruleText } from '../../i18n/index.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import { live } from '../../shared/live.ts';
import { useLocalValue } from '../../shared/local-currency.ts';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/cycle/cycle.css';

type Tab = 'current' | 'history' | 'top';
const COUNTDOWN_STEP_MS = 250;

/** Spec §5: a closed socket or a drifted clock shows a message and reloads the page after 3 s. */
function reloadSoon(message: string): void {
  toast(message);
  setTimeout(() => window.location.reload(), CYCLE_RELOAD_DELAY_MS);
}

function useNow(stepMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), stepMs);
    return () => clearInterval(timer);
  }, [stepMs]);
  return now;
}

function Header({
  info,
  pairs,
  onPair,
}: {
  info: CycleInfo;
  pairs: CycleInfo[];
  onPair(pair: CyclePair): void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const localValue = useLocalValue(locale);
  const tone = trendOf(info.rise) === 'up' ? 'hy-up' : 'hy-down';
  return (
    <section className="hy-cycle-header">
      <div className="hy-chips">
        {pairs.map((pair) => (
          <button
            key={pair.autoid}
            type="button"
            className={pair.tradcoin === info.tradcoin ? 'hy-chip active' : 'hy-chip'}
            onClick={() => onPair(pair)}
          >
            {pair.tradcoin}/{pair.maincoin}
          </button>
        ))}
        <Link to="/cycleHistory" className="hy-cycle-history-link">
          {t('cycle.allHistory')}
        </Link>
      </div>
      <div className="hy-cycle-quote">
        <div>
          <div className={`hy-cycle-price ${tone}`} data-testid="cycle-price">
            {formatMoney(info.price, info.price_accuracy, locale)}
          </div>
          <div className="hy-muted">
            <span data-testid="cycle-local">{localValue(info.price)}</span>{' '}
            <span className={tone}>{formatChange(info.rise, locale)}</span>
          </div>
        </div>
        <div className="hy-cycle-hilo">
          <span className="hy-muted">{t('cycle.high')}</span>
          <span>{formatMoney(info.height, info.price_accuracy, locale)}</span>
          <span className="hy-muted">{t('cycle.low')}</span>
          <span>{formatMoney(info.low, info.price_accuracy, locale)}</span>
        </div>
      </div>
    </section>
  );
}

/**
 * Spec §2 cycle screen: header, K-line, up and down, the three tabs, the
 * floating countdown box of each open position and the result popup.
 */
export function CyclePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const signedIn = useAuth((state) => state.isLoggedIn);
  const [pair, setPair] = useState<CyclePair>(DEFAULT_PAIR);
  const [tab, setTab] = useState<Tab>('current');
  const [side, setSide] = useState<'buy' | 'sell' | null>(null);
  const [result, setResult] = useState<CyclePosition | null>(null);
  const finished = useRef(new Set<string>());
  const symbols = useCycleSymbols();
  const info = useCycleInfo(pair);
  const offset = useServerOffset();
  const positions = usePositions(pair, signedIn);
  const history = useHistory(pair, signedIn && tab === 'history');
  const top = useTopOrders(pair);
  const now = useNow(COUNTDOWN_STEP_MS);
  const offsetMs = offset.data ?? 0;

  // The chart subscribes to the pair with its period; that one subscription also brings
  // cycleinfo and cycletop (a second subscription would replace it).

  /** Spec §4: the result popup opens once the finished position is settled. */
  const awaitResult = useCallback(
    async (orderid: string) => {
      const position = await pollSettled(orderid, positionById);
      if (!position) return;
      setResult(position);
      void client.invalidateQueries({ queryKey: ['cycle', 'history'] });
      void client.invalidateQueries({ queryKey: ['cycle', 'usable'] });
    },
    [client],
  );

  const open = (positions.data ?? []).filter((position) => !finished.current.has(position.orderid));
  const counting = open.map((position) => ({ position, left: secondsLeft(position, now, offsetMs) }));

  useEffect(() => {
    const ended = counting.filter(({ left }) => left === 0).map(({ position }) => position.orderid);
    if (ended.length === 0) return;
    for (const orderid of ended) finished.current.add(orderid);
    setTab('history');
    void positions.refetch();
    void refreshHistory(() => client.invalidateQueries({ queryKey: ['cycle', 'history'] }));
    for (const orderid of ended) void awaitResult(orderid);
  }, [counting, positions.refetch, awaitResult, client]);

  const submit = async (request: TradeRequest): Promise<boolean> => {
    const current = info.data;
    if (!current) return false;
    if (!live().isOpen()) {
      reloadSoon(t('cycle.socketClosed'));
      return false;
    }
    const drift = checkClockDrift({ lastTickMs: current.new_date, syncedNowMs: Date.now() + offsetMs });
    if (drift) {
      reloadSoon(ruleText(drift));
      return true;
    }
    try {
      await placeOrder(request.side, { ...pair, ...request });
      toast(t('cycle.placed'));
      setTab('current');
      await positions.refetch();
      void client.invalidateQueries({ queryKey: ['cycle', 'usable'] });
      return true;
    } catch {
      return false;
    }
  };

  const current = info.data;
  const accuracy = current?.price_accuracy ?? 2;
  return (
    <main className="hy-content hy-cycle" data-testid="cycle-page">
      {current ? (
        <Header
          info={current}
          pairs={symbols.data ?? [current]}
          onPair={(next) => setPair({ tradcoin: next.tradcoin, maincoin: next.maincoin })}
        />
      ) : null}
      <CycleKline pair={pair} pricePrecision={accuracy} />
      <div className="hy-cycle-actions">
        <button
          type="button"
          className="hy-cycle-up"
          data-testid="cycle-up"
          onClick={() => setSide('buy')}
          disabled={!current}
        >
          {t('cycle.buyUp')}
        </button>
        <button
          type="button"
          className="hy-cycle-down"
          data-testid="cycle-down"
          onClick={() => setSide('sell')}
          disabled={!current}
        >
          {t('cycle.sellDown')}
        </button>
      </div>
      <Tabs className="hy-cycle-tabs" activeKey={tab} onChange={(key) => setTab(key as Tab)}>
        <Tabs.Tab title={t('cycle.current')} key="current">
          <PositionList positions={open} priceAccuracy={() => accuracy} />
        </Tabs.Tab>
        <Tabs.Tab title={t('cycle.history')} key="history">
          <PositionList
            positions={(history.data?.pages ?? []).flatMap((page) => page.list)}
            priceAccuracy={() => accuracy}
            more={{
              hasMore: history.hasNextPage,
              loading: history.isFetchingNextPage,
              load: () => void history.fetchNextPage(),
            }}
          />
        </Tabs.Tab>
        <Tabs.Tab title={t('cycle.top')} key="top">
          <TopOrders rows={top.data ?? []} />
        </Tabs.Tab>
      </Tabs>
      {current
        ? counting
            .filter(({ left }) => left > 0)
            .map(({ position, left }, index) => (
              <PositionBox
                key={position.orderid}
                position={position}
                index={index}
                price={current.price}
                secondsLeft={left}
                priceAccuracy={accuracy}
              />
            ))
        : null}
      {current ? (
        <TradePopup side={side} info={current} onClose={() => setSide(null)} onSubmit={submit} />
      ) : null}
      <ResultPopup position={result} priceAccuracy={accuracy} onClose={() => setResult(null)} />
    </main>
  );
}
