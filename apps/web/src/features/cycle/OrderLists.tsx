import type { CyclePosition, CycleTopRow, Locale } from '@halyard/protocol';
import { Button } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, formatTime } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';

function Direction({ type }: { type: 'buy' | 'sell' }) {
  const { t } = useTranslation();
  return (
    <span className={type === 'buy' ? 'hy-up' : 'hy-down'}>
      {t(type === 'buy' ? 'cycle.up' : 'cycle.down')}
    </span>
  );
}

/** A settled order's result in words; a void one says why (no index price near its expiry). */
export function resultLabel(t: TFunction, position: CyclePosition): string {
  const seconds = (position.void_reason?.tolerance_ms ?? 0) / 1000;
  return t(`cycle.result.${position.result ?? 'draw'}`, { seconds });
}

/** One order card: open positions and history (spec §3 Cycle position labels). */
export function PositionCard({
  position,
  priceAccuracy,
}: {
  position: CyclePosition;
  priceAccuracy: number;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const settled = position.state === 'settled';
  const profitClass = position.result === 'win' ? 'hy-up' : position.result === 'loss' ? 'hy-down' : '';
  return (
    <div className="hy-cycle-card" data-testid="cycle-card">
      <div className="hy-cycle-row">
        <b>
          {position.tradcoin}/{position.maincoin} <Direction type={position.type} />
        </b>
        <span className="hy-muted">{formatDateTime(position.wdate, locale)}</span>
      </div>
      <div className="hy-cycle-grid">
        <span className="hy-muted">{t('cycle.amount')}</span>
        <span className="hy-muted">{t('cycle.duration')}</span>
        <span className="hy-muted">{settled ? t('cycle.profit') : t('cycle.expectedProfit')}</span>
        <span>{formatMoney(position.number, 4, locale)}</span>
        <span>{t('cycle.seconds', { seconds: position.lever })}</span>
        <span className={profitClass}>
          {formatMoney(settled ? position.last_profit : position.income, 4, locale)}
        </span>
        <span className="hy-muted">{t('cycle.openPrice')}</span>
        <span className="hy-muted">{t('cycle.closePrice')}</span>
        <span className="hy-muted">{t('cycle.fee')}</span>
        <span>{formatMoney(position.open_price, priceAccuracy, locale)}</span>
        <span>{settled ? formatMoney(position.close_price, priceAccuracy, locale) : '—'}</span>
        <span>{formatMoney(position.fee, 4, locale)}</span>
      </div>
      {position.result === 'void' ? (
        <div className="hy-cycle-note" data-testid="cycle-void">
          {resultLabel(t, position)}
        </div>
      ) : null}
      {settled ? (
        <div className="hy-muted hy-cycle-note">
          {t('cycle.proof', {
            open: formatDateTime(position.open_ts, locale, { seconds: true }),
            close: formatDateTime(position.close_ts ?? 0, locale, { seconds: true }),
            source: position.close_source ?? position.open_source,
          })}
        </div>
      ) : null}
    </div>
  );
}

export function PositionList({
  positions,
  priceAccuracy,
  more,
}: {
  positions: CyclePosition[];
  /** Decimal places of each position's pair price. */
  priceAccuracy(position: CyclePosition): number;
  /** Load-more of a paged list: shown while more pages exist. */
  more?: { hasMore: boolean; loading: boolean; load(): void };
}) {
  const { t } = useTranslation();
  if (positions.length === 0) return <EmptyState>{t('cycle.none')}</EmptyState>;
  return (
    <div>
      {positions.map((position) => (
        <PositionCard key={position.orderid} position={position} priceAccuracy={priceAccuracy(position)} />
      ))}
      {more?.hasMore ? (
        <Button block fill="none" loading={more.loading} onClick={more.load} data-testid="cycle-more">
          {t('cycle.loadMore')}
        </Button>
      ) : null}
    </div>
  );
}

/** Spec §2 top orders: time, direction, income, last profit. */
export function TopOrders({ rows }: { rows: CycleTopRow[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (rows.length === 0) return <EmptyState>{t('cycle.none')}</EmptyState>;
  return (
    <div className="hy-cycle-top">
      <div className="hy-cycle-top-row hy-muted">
        <span>{t('cycle.time')}</span>
        <span>{t('cycle.direction')}</span>
        <span>{t('cycle.income')}</span>
        <span>{t('cycle.lastProfit')}</span>
      </div>
      {rows.map((row) => (
        <div className="hy-cycle-top-row" key={`${row.wdate}-${row.type}-${row.income}-${row.last_profit}`}>
          <span>{formatTime(row.wdate, locale)}</span>
          <Direction type={row.type} />
          <span>{formatMoney(row.income, 2, locale)}</span>
          <span className={row.last_profit.startsWith('-') ? 'hy-down' : 'hy-up'}>
            {formatMoney(row.last_profit, 2, locale)}
          </span>
        </div>
      ))}
    </div>
  );
}
