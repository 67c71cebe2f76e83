import type { Locale, SpotSymbolRow } from '@halyard/protocol';
import { Popup, SearchBar, Tabs } from 'antd-mobile';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { useSpotSymbols } from '../market/api.ts';
import { type PairRef, readFavourites, toggleFavourite } from '../market/pair-lists.ts';

interface PairPopupProps {
  visible: boolean;
  onClose(): void;
  onPick(pair: SpotSymbolRow): void;
}

function same(a: PairRef, b: PairRef): boolean {
  return a.tradcoin === b.tradcoin && a.maincoin === b.maincoin;
}

/** The pair selector (spec §2): slides in from the left, with a search and the favourites. */
export function PairPopup({ visible, onClose, onPick }: PairPopupProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { data: symbols } = useSpotSymbols();
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<'all' | 'favourites'>('all');
  const [favourites, setFavourites] = useState<PairRef[]>(readFavourites);
  const needle = search.trim().toUpperCase();
  const rows = (symbols ?? []).filter(
    (row) =>
      row.tradcoin.includes(needle) &&
      (tab === 'all' || favourites.some((favourite) => same(favourite, row))),
  );
  return (
    <Popup visible={visible} onMaskClick={onClose} position="left" bodyClassName="hy-pair-popup">
      <div className="hy-pair-popup-title">{t('exchange.pairs')}</div>
      <SearchBar placeholder={t('exchange.searchCoin')} value={search} onChange={setSearch} />
      <Tabs activeKey={tab} onChange={(key) => setTab(key === 'favourites' ? 'favourites' : 'all')}>
        <Tabs.Tab key="all" title={t('exchange.allPairs')} />
        <Tabs.Tab key="favourites" title={t('exchange.favourites')} />
      </Tabs>
      {rows.length === 0 ? <EmptyState>{t('market.empty')}</EmptyState> : null}
      {rows.map((row) => {
        const starred = favourites.some((favourite) => same(favourite, row));
        return (
          <div key={row.autoid} className="hy-pair-option">
            <button
              type="button"
              className="hy-star"
              aria-label={t('exchange.favourite')}
              aria-pressed={starred}
              onClick={() =>
                setFavourites(toggleFavourite({ tradcoin: row.tradcoin, maincoin: row.maincoin }))
              }
            >
              {starred ? <StarFill color="var(--hy-accent)" /> : <StarOutline />}
            </button>
            <button type="button" className="hy-pair-pick" onClick={() => onPick(row)}>
              <span>
                <b>{row.tradcoin}</b>
                <span className="hy-muted">/{row.maincoin}</span>
              </span>
              <span className="hy-num">{formatMoney(row.price, row.price_accuracy, locale)}</span>
              <span className={`hy-num ${trendOf(row.rise) === 'up' ? 'hy-up' : 'hy-down'}`}>
                {formatChange(row.rise, locale)}
              </span>
            </button>
          </div>
        );
      })}
    </Popup>
  );
}
