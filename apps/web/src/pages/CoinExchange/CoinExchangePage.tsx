import type { Locale } from '@halyard/protocol';
import { BillOutline, HistogramOutline, SearchOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { useEffect, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { rememberViewed } from '../../features/market/pair-lists.ts';
import {
  readSelectedPair,
  readTradeSide,
  recordPath,
  type SpotPair,
  storeSelectedPair,
  useSpotAccount,
  useSpotSnapshot,
} from '../../features/spot/api.ts';
import { CancelAllOrders, OpenOrders } from '../../features/spot/OpenOrders.tsx';
import { OrderBook } from '../../features/spot/OrderBook.tsx';
import { OrderPanel } from '../../features/spot/OrderPanel.tsx';
import { initialOrderForm, orderFormReducer } from '../../features/spot/order-form.ts';
import { PairPopup } from '../../features/spot/PairPopup.tsx';
import { useAuth } from '../../shared/auth-store.ts';
import { formatChange, trendOf } from '../../shared/format.ts';
import { SESSION_KEYS, session } from '../../shared/storage.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import '../../features/spot/spot.css';

/** Spot trading (spec §2 coinExchange, tab 1). */
export function CoinExchangePage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const loggedIn = useAuth((state) => state.isLoggedIn);
  const [pair, setPair] = useState<SpotPair>(readSelectedPair);
  const [picking, setPicking] = useState(false);
  const [form, dispatch] = useReducer(orderFormReducer, readTradeSide(), initialOrderForm);
  const snapshot = useSpotSnapshot(pair);
  const account = useSpotAccount(pair, loggedIn);
  const info = snapshot.data?.info;

  useEffect(() => {
    if (info) dispatch({ type: 'latest', price: info.price });
  }, [info]);

  const choose = (next: SpotPair) => {
    const picked = { tradcoin: next.tradcoin, maincoin: next.maincoin };
    storeSelectedPair(picked);
    rememberViewed(picked);
    setPair(picked);
    dispatch({ type: 'price', price: '' });
    dispatch({ type: 'amount', amount: '' });
    setPicking(false);
  };
  const openChart = () => {
    session.set(SESSION_KEYS.marketDetails, JSON.stringify(pair));
    navigate('/marketDetails/trad');
  };

  return (
    <div className="hy-spot">
      <header className="hy-spot-top">
        <button
          type="button"
          className="hy-spot-pair"
          data-testid="pair-picker"
          onClick={() => setPicking(true)}
        >
          <UnorderedListOutline />
          <b>
            {pair.tradcoin}/{pair.maincoin}
          </b>
          {info ? (
            <span className={`hy-num ${trendOf(info.rise) === 'up' ? 'hy-up' : 'hy-down'}`}>
              {formatChange(info.rise, locale)}
            </span>
          ) : null}
        </button>
        <span className="hy-spot-links">
          <Link to="/coinSearch" aria-label={t('home.searchPairs')} data-testid="search-link">
            <SearchOutline fontSize={20} />
          </Link>
          <button type="button" aria-label={t('exchange.chart')} data-testid="kline-link" onClick={openChart}>
            <HistogramOutline fontSize={20} />
          </button>
          <Link to={recordPath(pair)} aria-label={t('route.exchangeRecord')} data-testid="record-link">
            <BillOutline fontSize={20} />
          </Link>
        </span>
      </header>
      {snapshot.data && info ? (
        <div className="hy-spot-main">
          <OrderPanel info={info} account={account.data} form={form} dispatch={dispatch} />
          <OrderBook snapshot={snapshot.data} onPick={(price) => dispatch({ type: 'level', price })} />
        </div>
      ) : (
        <EmptyState>{snapshot.isError ? t('market.empty') : t('common.loading')}</EmptyState>
      )}
      <section className="hy-spot-orders">
        <div className="hy-spot-orders-head">
          <b>
            {t('exchange.openOrders')} ({account.data?.entrust_order.length ?? 0})
          </b>
          <span className="hy-spot-orders-actions">
            <CancelAllOrders pair={pair} count={account.data?.entrust_order.length ?? 0} />
            <Link to={recordPath(pair)}>{t('exchange.history')}</Link>
          </span>
        </div>
        {info ? (
          <OpenOrders
            orders={account.data?.entrust_order ?? []}
            priceDigits={info.price_accuracy}
            amountDigits={info.amount_accuracy}
          />
        ) : null}
      </section>
      <PairPopup visible={picking} onClose={() => setPicking(false)} onPick={choose} />
    </div>
  );
}
