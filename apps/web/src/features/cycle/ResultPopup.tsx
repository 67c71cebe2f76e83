import type { CyclePosition, Locale } from '@halyard/protocol';
import { Button, Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { resultLabel } from './OrderLists.tsx';

/** Time of a price as the popup shows it: the date and time to the second. */
function priceTime(ms: number | null, locale: Locale): string {
  return ms === null ? '—' : formatDateTime(ms, locale, { seconds: true });
}

/**
 * Spec §2 result popup: income, direction, amount and duration, with both
 * prices, their times and the price source (AMENDMENTS A3), so the user can
 * see why the contract won, lost or was a draw.
 */
export function ResultPopup({
  position,
  priceAccuracy,
  onClose,
}: {
  position: CyclePosition | null;
  priceAccuracy: number;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (!position) return null;
  const profitClass =
    position.result === 'win' ? 'hy-up' : position.result === 'loss' ? 'hy-down' : 'hy-muted';
  const rows: [string, string, string?][] = [
    [
      t('cycle.direction'),
      t(position.type === 'buy' ? 'cycle.up' : 'cycle.down'),
      position.type === 'buy' ? 'hy-up' : 'hy-down',
    ],
    [t('cycle.amount'), `${formatMoney(position.number, 4, locale)} ${position.paycoin}`],
    [t('cycle.duration'), t('cycle.seconds', { seconds: position.lever })],
    [t('cycle.openPrice'), formatMoney(position.open_price, priceAccuracy, locale)],
    [t('cycle.openTime'), priceTime(position.open_ts, locale)],
    [t('cycle.closePrice'), formatMoney(position.close_price, priceAccuracy, locale)],
    [t('cycle.closeTime'), priceTime(position.close_ts, locale)],
    [t('cycle.fee'), `${formatMoney(position.fee, 4, locale)} ${position.paycoin}`],
    [t('cycle.source'), position.close_source ?? position.open_source],
  ];
  return (
    <Popup visible onMaskClick={onClose} position="bottom" bodyClassName="hy-cycle-popup">
      <div data-testid="cycle-result">
        <div className="hy-cycle-result-head">
          <div className="hy-muted">{resultLabel(t, position)}</div>
          <div className={`hy-cycle-result-profit ${profitClass}`} data-testid="cycle-result-profit">
            {position.result === 'win' ? '+' : ''}
            {formatMoney(position.last_profit, 4, locale)} {position.paycoin}
          </div>
        </div>
        {rows.map(([label, value, className]) => (
          <div className="hy-cycle-row" key={label}>
            <span className="hy-muted">{label}</span>
            <span className={className}>{value}</span>
          </div>
        ))}
        <Button block onClick={onClose} style={{ marginTop: 12 }}>
          {t('common.confirm')}
        </Button>
      </div>
    </Popup>
  );
}
