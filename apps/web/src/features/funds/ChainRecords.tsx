import type { Locale } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import type { ChainRecord } from './wallet-api.ts';

/** Deposit or withdrawal records: amount, chain, state (waiting / completed / rejected), time. */
export function ChainRecords({ records, testId }: { records: ChainRecord[] | undefined; testId: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (!records || records.length === 0) return <EmptyState>{t('funds.noRecords')}</EmptyState>;
  return (
    <div data-testid={testId}>
      {records.map((record) => (
        <div key={record.id} className="hy-record-row">
          <span>
            <div className="hy-num">
              {formatMoney(record.amount, DISPLAY_PRECISION.total, locale)} {record.coin}
            </div>
            <div className="hy-muted hy-small">
              {record.blockname} · {formatDateTime(record.time, locale)}
            </div>
            {record.reason ? <div className="hy-small hy-down">{record.reason}</div> : null}
          </span>
          <b className={`hy-state-${record.state}`} data-testid="record-state">
            {t(`funds.state.${record.state}`)}
          </b>
        </div>
      ))}
    </div>
  );
}
