import { type Locale, MARKET_KINDS, type MarketKind } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useFuturesSymbols, useSpotSymbols } from '../../features/market/api.ts';
import { useMarketFeed } from '../../features/market/feed.ts';
import { type ChartPair, KlineChart } from '../../features/market/KlineChart.tsx';
import { storeSelectedPair, storeTradeSide } from '../../features/spot/api.ts';
import { OrderBook } from '../../features/spot/OrderBook.tsx';
import { INTL_TAGS } from '../../i18n/locale.ts';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import { SESSION_KEYS, session } from '../../shared/storage.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/market/market-details.css';
import '../../features/spot/spot.css';

/** A trade's time of day (the list covers the last minutes, so no date). */
function formatTime(ms: number, locale: Locale): string {
  return new Intl.DateTimeFormat(INTL_TAGS[locale], { timeStyle: 'medium' }).format(ms);
}

const DEFAULT_PAIR: ChartPair = { tradcoin: 'BTC', maincoin: 'USDT' };

/** The pair market details opens on: the one the previous screen stored for it (spec §3 marketDetails). */
function storedPair(): ChartPair {
  try {
    const stored = JSON.parse(session.get(SESSION_KEYS.marketDetails) ?? 'null') as ChartPair | null;
    return stored?.tradcoin && stored.maincoin
      ? { tradcoin: stored.tradcoin, maincoin: stored.maincoin }
      : DEFAULT_PAIR;
  } catch {
    return DEFAULT_PAIR;
  }
}

function kindOf(type: string | undefined): MarketKind {
  return MARKET_KINDS.find((kind) => kind === type) ?? 'trad';
}

/** The pair's digits from its symbol row (spot or futures); cycle pairs share the spot rows' coins. */
function usePrecision(kind: MarketKind, pair: ChartPair) {
  const spot = useSpotSymbols();
  const futures = useFuturesSymbols();
  const rows = kind === 'contract' ? futures.data : spot.data;
  const row = rows?.find((item) => item.tradcoin === pair.tradcoin && item.maincoin === pair.maincoin);
  return { price: row?.price_accuracy ?? 2, amount: row?.amount_accuracy ?? DISPLAY_PRECISION.balance };
}

/** /marketDetails/:type (spec §2): figures, K-line, book and latest trades, buy and sell. */
export function MarketDetailsPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const kind = kindOf(useParams().type);
  const [pair] = useState(storedPair);
  const feed = useMarketFeed(kind, pair);
  const digits = usePrecision(kind, pair);
  const [tab, setTab] = useState<'book' | 'trades'>('book');
  const ticker = feed.ticker;
  const tone = trendOf(ticker?.rise) === 'up' ? 'hy-up' : 'hy-down';
  const trade = (side: 'buy' | 'sell') => {
    storeSelectedPair(pair);
    storeTradeSide(side);
    navigate(kind === 'contract' ? '/futures' : kind === 'cycle' ? '/cycle' : '/coinExchange');
  };
  const bookInfo = {
    tradcoin: pair.tradcoin,
    maincoin: pair.maincoin,
    price: ticker?.price ?? '0',
    rise: ticker?.rise ?? '0',
    price_accuracy: digits.price,
    amount_accuracy: digits.amount,
  };

  return (
    <PageFrame title={`${pair.tradcoin}/${pair.maincoin}`} fallback="/coinExchange">
      <div className="hy-details">
        <section className="hy-details-head">
          <div>
            <div className={`hy-details-price hy-num ${tone}`} data-testid="market-price">
              {formatMoney(ticker?.price, digits.price, locale)}
            </div>
            <div className={`hy-num ${tone}`}>{formatChange(ticker?.rise, locale)}</div>
          </div>
          <dl className="hy-details-stats">
            <dt>{t('kline.high')}</dt>
            <dd className="hy-num">{formatMoney(ticker?.high, digits.price, locale)}</dd>
            <dt>{t('kline.low')}</dt>
            <dd className="hy-num">{formatMoney(ticker?.low, digits.price, locale)}</dd>
            <dt>{t('kline.volume')}</dt>
            <dd className="hy-num">{formatMoney(ticker?.volume, digits.amount, locale)}</dd>
          </dl>
        </section>
        <KlineChart kind={kind} pair={pair} pricePrecision={digits.price} />
        <Tabs activeKey={tab} onChange={(key) => setTab(key === 'trades' ? 'trades' : 'book')}>
          <Tabs.Tab key="book" title={t('kline.depth')} />
          <Tabs.Tab key="trades" title={t('kline.trades')} />
        </Tabs>
        {tab === 'book' ? (
          <div className="hy-details-book">
            <OrderBook
              snapshot={{ info: bookInfo, buy: feed.buy, sell: feed.sell }}
              onPick={() => undefined}
            />
          </div>
        ) : feed.top.length === 0 ? (
          <EmptyState>{t('kline.noTrades')}</EmptyState>
        ) : (
          <div className="hy-trades" data-testid="latest-trades">
            <div className="hy-trades-row hy-muted">
              <span>{t('kline.time')}</span>
              <span>{t('exchange.price')}</span>
              <span>{t('exchange.amount')}</span>
            </div>
            {feed.top.map((row) => (
              <div
                key={`${row.wdate}-${row.type}-${row.price}-${row.amount}`}
                className="hy-trades-row hy-num"
              >
                <span>{formatTime(row.wdate, locale)}</span>
                <span className={row.type === 'buy' ? 'hy-up' : 'hy-down'}>
                  {formatMoney(row.price, digits.price, locale)}
                </span>
                <span>{formatMoney(row.amount, digits.amount, locale)}</span>
              </div>
            ))}
          </div>
        )}
      </div>
      <footer className="hy-details-actions">
        <button type="button" className="buy" data-testid="details-buy" onClick={() => trade('buy')}>
          {t('exchange.buy')}
        </button>
        <button type="button" className="sell" data-testid="details-sell" onClick={() => trade('sell')}>
          {t('exchange.sell')}
        </button>
      </footer>
    </PageFrame>
  );
}
