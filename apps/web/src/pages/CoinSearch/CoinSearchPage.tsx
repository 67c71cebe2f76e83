import type { Locale } from '@halyard/protocol';
import { Button, SearchBar, Tabs } from 'antd-mobile';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pairName, useSpotSymbols } from '../../features/market/api.ts';
import {
  clearRecent,
  type PairRef,
  readFavourites,
  readRecent,
  toggleFavourite,
} from '../../features/market/pair-lists.ts';
import { useOpenPair } from '../../features/pairs/trade-pair.ts';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

interface Row extends PairRef {
  price?: string;
  rise?: string;
  price_accuracy?: number;
}

const key = (pair: PairRef) => pairName(pair);

function PairRows({
  rows,
  favourites,
  onStar,
  onOpen,
}: {
  rows: Row[];
  favourites: Set<string>;
  onStar(pair: PairRef): void;
  onOpen(pair: PairRef): void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (rows.length === 0) return <EmptyState>{t('coinSearch.none')}</EmptyState>;
  return (
    <div>
      {rows.map((row) => (
        <div
          key={key(row)}
          style={{ display: 'flex', alignItems: 'center', gap: 10, borderBottom: '1px solid var(--hy-line)' }}
        >
          <button
            type="button"
            aria-label={t(favourites.has(key(row)) ? 'coinSearch.unstar' : 'coinSearch.star')}
            onClick={() => onStar(row)}
            style={{
              border: 0,
              background: 'none',
              color: favourites.has(key(row)) ? 'var(--hy-accent)' : 'var(--hy-muted)',
              fontSize: 18,
              padding: 4,
            }}
          >
            {favourites.has(key(row)) ? <StarFill /> : <StarOutline />}
          </button>
          <button
            type="button"
            className="hy-market-row"
            style={{ flex: 1, borderBottom: 0, gridTemplateColumns: '1.2fr 1fr 0.9fr' }}
            onClick={() => onOpen(row)}
          >
            <span className="hy-pair">
              <b>{row.tradcoin}</b>
              <span className="hy-muted">/{row.maincoin}</span>
            </span>
            <span className="hy-price">
              {row.price ? formatMoney(row.price, row.price_accuracy ?? 4, locale) : '—'}
            </span>
            {row.rise !== undefined ? (
              <span
                className={trendOf(row.rise) === 'up' ? 'hy-up' : 'hy-down'}
                style={{ textAlign: 'right' }}
              >
                {formatChange(row.rise, locale)}
              </span>
            ) : (
              <span />
            )}
          </button>
        </div>
      ))}
    </div>
  );
}

/** Coin list with search, recently viewed and favourites (spec §2 "Other areas"). */
export function CoinSearchPage() {
  const { t } = useTranslation();
  const openPair = useOpenPair();
  const symbols = useSpotSymbols();
  const [text, setText] = useState('');
  const [favourites, setFavourites] = useState(readFavourites);
  const [recent, setRecent] = useState(readRecent);
  const favouriteKeys = useMemo(() => new Set(favourites.map(key)), [favourites]);
  const byKey = useMemo(() => new Map((symbols.data ?? []).map((row) => [key(row), row])), [symbols.data]);
  const withPrices = (pairs: PairRef[]): Row[] => pairs.map((pair) => byKey.get(key(pair)) ?? pair);
  const needle = text.trim().toUpperCase();
  const matches = (symbols.data ?? []).filter(
    (row) => needle === '' || row.tradcoin.includes(needle) || row.maincoin.includes(needle),
  );
  const open = (pair: PairRef) => openPair('spot', pair);
  const star = (pair: PairRef) => setFavourites(toggleFavourite(pair));
  return (
    <PageFrame title={t('route.coinSearch')}>
      <SearchBar
        placeholder={t('coinSearch.placeholder')}
        value={text}
        onChange={setText}
        style={{ marginBottom: 12 }}
      />
      {needle === '' && recent.length > 0 ? (
        <section className="hy-card" style={{ padding: 12 }}>
          <div
            style={{
              display: 'flex',
              justifyContent: 'space-between',
              alignItems: 'center',
              marginBottom: 8,
            }}
          >
            <b>{t('coinSearch.recent')}</b>
            <Button
              size="mini"
              fill="none"
              onClick={() => {
                clearRecent();
                setRecent([]);
              }}
            >
              {t('coinSearch.clear')}
            </Button>
          </div>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
            {recent.map((pair) => (
              <Button key={key(pair)} size="mini" shape="rounded" onClick={() => open(pair)}>
                {pairName(pair)}
              </Button>
            ))}
          </div>
        </section>
      ) : null}
      <section className="hy-card" style={{ padding: '0 12px' }}>
        <Tabs defaultActiveKey="all">
          <Tabs.Tab title={t('coinSearch.all')} key="all">
            {symbols.isLoading ? (
              <EmptyState>{t('common.loading')}</EmptyState>
            ) : symbols.data === undefined ? (
              <EmptyState>{t('market.empty')}</EmptyState>
            ) : (
              <PairRows rows={matches} favourites={favouriteKeys} onStar={star} onOpen={open} />
            )}
          </Tabs.Tab>
          <Tabs.Tab title={t('coinSearch.favourites')} key="favourites">
            <PairRows
              rows={withPrices(favourites).filter((row) => needle === '' || key(row).includes(needle))}
              favourites={favouriteKeys}
              onStar={star}
              onOpen={open}
            />
          </Tabs.Tab>
        </Tabs>
      </section>
    </PageFrame>
  );
}
