import type { Locale } from '@halyard/protocol';
import { useTranslation } from 'react-i18next';
import { useReferralSummary } from '../../features/referral/api.ts';
import { AMOUNT_DIGITS } from '../../features/referral/format.ts';
import { formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';

/** Spec §2 "income details": what the team earned the user, per coin (all time, last 24 h) and per day. */
export function IncomeDetails() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const summary = useReferralSummary().data;
  if (!summary) return null;
  if (summary.byCoin.length === 0) return <EmptyState>{t('invite.noIncome')}</EmptyState>;
  const amount = (text: string, coin: string) => `${formatMoney(text, AMOUNT_DIGITS, locale)} ${coin}`;
  return (
    <div className="hy-ref-list" data-testid="income">
      <section className="hy-ref-card">
        <h3>{t('invite.byCoin')}</h3>
        {summary.byCoin.map((total) => (
          <div key={total.coin} className="hy-ref-total">
            <b>{total.coin}</b>
            <span data-testid={`income-total-${total.coin}`}>{amount(total.total, total.coin)}</span>
            <span className="hy-muted">
              {t('invite.last24h')} {amount(total.last24h, total.coin)}
            </span>
          </div>
        ))}
      </section>
      <section className="hy-ref-card">
        <h3>{t('invite.byDay')}</h3>
        {summary.byDay.map((day) => (
          <div key={`${day.day}-${day.coin}`} className="hy-ref-row">
            <span>{day.day}</span>
            <span>{amount(day.amount, day.coin)}</span>
          </div>
        ))}
      </section>
    </div>
  );
}
