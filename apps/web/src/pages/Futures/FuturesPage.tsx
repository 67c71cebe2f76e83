import type { FuturesSymbolRow, Locale } from '@halyard/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { ActionSheet, Dialog, Popup, Tabs } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  cancelEntrust,
  closeBySide,
  closePosition,
  DEFAULT_PAIR,
  type FuturesOrder,
  ordersKey,
  placeOrder,
  subscribeContract,
  useContractInfo,
  useFuturesSymbols,
  useLevers,
  useOrderLists,
} from '../../features/futures/api.ts';
import { EntrustCard, PositionCard } from '../../features/futures/Cards.tsx';
import { OrderBook } from '../../features/futures/OrderBook.tsx';
import { OrderForm, type OrderFormState } from '../../features/futures/OrderForm.tsx';
import { PartialClosePopup } from '../../features/futures/PartialClosePopup.tsx';
import { PosterPopup } from '../../features/futures/PosterPopup.tsx';
import { type FuturesTab, futuresSession } from '../../features/futures/session.ts';
import type { FuturesPair, Position } from '../../features/futures/types.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import '../../features/futures/futures.css';

/** Spec §2: Chinese name when the locale is CN, otherwise the symbol. */
function pairName(row: FuturesSymbolRow, locale: Locale): string {
  return locale === 'cn' && row.chinaname ? row.chinaname : row.symbol || `${row.tradcoin}/${row.maincoin}`;
}

function PairDrawer({
  open,
  current,
  onClose,
  onPick,
}: {
  open: boolean;
  current: FuturesPair;
  onClose(): void;
  onPick(pair: FuturesPair): void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const symbols = useFuturesSymbols();
  return (
    <Popup visible={open} position="left" onMaskClick={onClose} bodyClassName="hy-fdrawer">
      <h3>{t('perp.contracts')}</h3>
      {(symbols.data ?? []).map((row) => (
        <button
          key={row.autoid}
          type="button"
          data-testid="futures-pair"
          className={`hy-fdrawer-row ${row.tradcoin === current.tradcoin && row.maincoin === current.maincoin ? 'active' : ''}`}
          onClick={() => onPick({ tradcoin: row.tradcoin, maincoin: row.maincoin })}
        >
          <span>{pairName(row, locale)}</span>
          <span className={trendOf(row.rise) === 'up' ? 'hy-up' : 'hy-down'}>
            {formatMoney(row.price, row.price_accuracy, locale)}
          </span>
        </button>
      ))}
    </Popup>
  );
}

function initialForm(): OrderFormState {
  return {
    side: futuresSession.direction(),
    style: futuresSession.style(),
    tdMode: futuresSession.mode(),
    lever: futuresSession.lever(),
    price: '',
    quantity: '',
    takeProfit: '',
    stopLoss: '',
  };
}

/** Asks, then runs; a cancelled confirm is ignored silently (spec §9). */
async function confirmed(content: string, t: (key: string) => string): Promise<boolean> {
  return Dialog.confirm({ content, confirmText: t('common.confirm'), cancelText: t('common.cancel') });
}

/** Runs a write; the api client already showed its error. */
async function attempt(action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action();
    return true;
  } catch {
    return false;
  }
}

/**
 * Spec §2 futures trade: pair drawer, the order form beside the 7+7 book,
 * then the Open and Position tabs with their cards, the close-by-side sheet,
 * partial close and the poster.
 */
export function FuturesPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const signedIn = useAuth((state) => state.isLoggedIn);
  const [pair, setPair] = useState<FuturesPair>(() => futuresSession.pair(DEFAULT_PAIR));
  const [form, setForm] = useState<OrderFormState>(initialForm);
  const [tab, setTab] = useState<FuturesTab>(futuresSession.tab);
  const [drawer, setDrawer] = useState(false);
  const [sideSheet, setSideSheet] = useState(false);
  const [partial, setPartial] = useState<Position | null>(null);
  const [poster, setPoster] = useState<Position | null>(null);
  const info = useContractInfo(pair);
  const levers = useLevers(pair);
  const lists = useOrderLists(pair, signedIn);
  const contract = info.data?.info;
  const leverList = (levers.data ?? []).map((row) => row.lever);

  useEffect(() => subscribeContract(pair), [pair]);

  // A new pair's leverage list: keep the chosen one when it is offered, else take the first.
  const offered = levers.data;
  useEffect(() => {
    const first = offered?.[0];
    if (!first) return;
    setForm((held) =>
      offered.some((row) => row.lever === held.lever) ? held : { ...held, lever: first.lever },
    );
  }, [offered]);

  const change = (patch: Partial<OrderFormState>) => {
    if (patch.side) futuresSession.setDirection(patch.side);
    if (patch.style) futuresSession.setStyle(patch.style);
    if (patch.tdMode) futuresSession.setMode(patch.tdMode);
    if (patch.lever) futuresSession.setLever(patch.lever);
    setForm((held) => ({ ...held, ...patch }));
  };

  const choosePair = (next: FuturesPair) => {
    setDrawer(false);
    futuresSession.setPair(next);
    setPair(next);
    setForm((held) => ({ ...held, price: '', quantity: '', takeProfit: '', stopLoss: '' }));
  };

  const chooseTab = (next: FuturesTab) => {
    futuresSession.setTab(next);
    setTab(next);
  };

  const refresh = () => client.invalidateQueries({ queryKey: ordersKey(pair) });

  const submit = async (order: FuturesOrder) => {
    const placed = await attempt(() => placeOrder(order));
    if (placed) {
      chooseTab(order.style === 'market' ? 'position' : 'open');
      await refresh();
    }
    return placed;
  };

  const cancel = async (id: number) => {
    if (!(await confirmed(t('perp.cancelConfirm'), t))) return;
    if (await attempt(() => cancelEntrust(id))) await refresh();
  };

  const closeAll = async (position: Position) => {
    if (!(await confirmed(t('perp.closeAllConfirm'), t))) return;
    if (await attempt(() => closePosition(position.autoid, position.unfilled))) await refresh();
  };

  const closePart = async (position: Position, quantity: string) => {
    const done = await attempt(() => closePosition(position.autoid, quantity));
    if (done) await refresh();
    return done;
  };

  const closeSide = async (type: 'all' | 'buy' | 'sell') => {
    setSideSheet(false);
    if (!(await confirmed(t(`perp.closeSideConfirm.${type}`), t))) return;
    if (await attempt(() => closeBySide(type, pair))) await refresh();
  };

  const openStopPl = (position: Position | null) => {
    futuresSession.setPosition(position);
    navigate('/stopPl');
  };

  const entrusts = lists.data?.entrusts ?? [];
  const positions = lists.data?.positions ?? [];
  const locale = i18n.language as Locale;
  return (
    <main className="hy-content hy-futures" data-testid="futures-page">
      <div className="hy-fhead">
        <button
          type="button"
          className="hy-fhead-pair"
          onClick={() => setDrawer(true)}
          data-testid="futures-drawer"
        >
          ☰ {contract ? pairName(contract, locale) : `${pair.tradcoin}/${pair.maincoin}`}
        </button>
        {contract ? (
          <span className={trendOf(contract.rise) === 'up' ? 'hy-up' : 'hy-down'}>
            {formatChange(contract.rise, locale)}
          </span>
        ) : null}
        <nav className="hy-fhead-links">
          <Link to="/marketDetails/contract" onClick={() => futuresSession.setChartPair(pair)}>
            {t('perp.chart')}
          </Link>
          <button type="button" className="hy-flink" onClick={() => openStopPl(positions[0] ?? null)}>
            {t('perp.tpSl')}
          </button>
          <Link to="/futuresRecord">{t('perp.records')}</Link>
        </nav>
      </div>
      {contract ? (
        <div className="hy-ftrade">
          <OrderForm
            info={contract}
            levers={leverList}
            usable={lists.data?.usable ?? '0'}
            state={form}
            onChange={change}
            onSubmit={submit}
          />
          <OrderBook
            buy={info.data?.buy ?? []}
            sell={info.data?.sell ?? []}
            price={contract.price}
            rise={contract.rise}
            point={contract.price_accuracy}
            onPick={(price) => {
              if (form.style === 'limit') change({ price });
            }}
          />
        </div>
      ) : null}
      <div className="hy-ftabs-bar">
        <Tabs activeKey={tab} onChange={(key) => chooseTab(key as FuturesTab)}>
          <Tabs.Tab title={`${t('perp.open')} (${entrusts.length})`} key="open" />
          <Tabs.Tab title={`${t('perp.positions')} (${positions.length})`} key="position" />
        </Tabs>
        <button
          type="button"
          className="hy-flink"
          onClick={() => setSideSheet(true)}
          data-testid="close-side"
        >
          {t('perp.closeBySide')}
        </button>
      </div>
      <SwipeArea tab={tab} onSwipe={chooseTab}>
        {tab === 'open' ? (
          entrusts.length === 0 ? (
            <div className="hy-fempty">{t('perp.noOrders')}</div>
          ) : (
            entrusts.map((entrust) => (
              <EntrustCard
                key={entrust.autoid}
                entrust={entrust}
                onCancel={() => void cancel(entrust.autoid)}
              />
            ))
          )
        ) : positions.length === 0 ? (
          <div className="hy-fempty">{t('perp.noPositions')}</div>
        ) : (
          positions.map((position) => (
            <PositionCard
              key={position.autoid}
              position={position}
              onTpSl={() => openStopPl(position)}
              onCloseAll={() => void closeAll(position)}
              onPartial={() => setPartial(position)}
              onPoster={() => setPoster(position)}
            />
          ))
        )}
      </SwipeArea>
      <PairDrawer open={drawer} current={pair} onClose={() => setDrawer(false)} onPick={choosePair} />
      <ActionSheet
        visible={sideSheet}
        onClose={() => setSideSheet(false)}
        cancelText={t('common.cancel')}
        actions={(['all', 'buy', 'sell'] as const).map((type) => ({
          key: type,
          text: t(`perp.closeSide.${type}`),
          onClick: () => void closeSide(type),
        }))}
      />
      <PartialClosePopup position={partial} onClose={() => setPartial(null)} onSubmit={closePart} />
      <PosterPopup position={poster} onClose={() => setPoster(null)} />
    </main>
  );
}

const SWIPE_PX = 60;

/** Spec §2 swipe tabs: a horizontal swipe over the list moves to the other tab. */
function SwipeArea({
  tab,
  onSwipe,
  children,
}: {
  tab: FuturesTab;
  onSwipe(tab: FuturesTab): void;
  children: React.ReactNode;
}) {
  const [start, setStart] = useState<{ x: number; y: number } | null>(null);
  return (
    <section
      data-testid={`futures-tab-${tab}`}
      onTouchStart={(event) => {
        const touch = event.touches[0];
        if (touch) setStart({ x: touch.clientX, y: touch.clientY });
      }}
      onTouchEnd={(event) => {
        const touch = event.changedTouches[0];
        if (!start || !touch) return;
        const dx = touch.clientX - start.x;
        setStart(null);
        if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(touch.clientY - start.y)) return;
        onSwipe(dx < 0 ? 'position' : 'open');
      }}
    >
      {children}
    </section>
  );
}
