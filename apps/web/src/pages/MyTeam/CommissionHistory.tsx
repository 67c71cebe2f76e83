import { Dec } from '@halyard/money';
import {
  type Locale,
  REFERRAL_PRODUCTS,
  type ReferralCommission,
  type ReferralProduct,
} from '@halyard/protocol';
import { Button, InfiniteScroll, Selector, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCommissions, useCommissions, useReferralSummary } from '../../features/referral/api.ts';
import {
  AMOUNT_DIGITS,
  type CommissionFilter,
  commissionQuery,
  NO_FILTER,
  percentText,
} from '../../features/referral/format.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';

/** One commission with the trade it came from, the tier and rate used, or why it earned nothing; pending or credited. */
function CommissionRow({ row }: { row: ReferralCommission }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const amount = (text: string) => `${formatMoney(text, AMOUNT_DIGITS, locale)} ${row.feeCoin}`;
  // An excluded trade used no tier and no rate: its reason is shown instead. Level 2 and a launch's rebate have one rate, no tier.
  const tierAndRate = () => {
    if (row.excluded !== null) return '—';
    if (row.level === 2) return `${t('invite.levelTwo')} · ${percentText(row.rate, locale)}`;
    if (row.product === 'ieo') return percentText(row.rate, locale);
    const tier = row.tier === null ? '—' : t('invite.tierName', { tier: row.tier });
    return `${tier} · ${percentText(row.rate, locale)}`;
  };
  return (
    <div className="hy-ref-item" data-testid="commission">
      <div className="hy-ref-item-head">
        <Tag color="primary" fill="outline">
          {t(`invite.product.${row.product}`)}
        </Tag>
        <b>{row.friend}</b>
        <span className="hy-muted">{formatDateTime(row.time, locale)}</span>
      </div>
      <div className="hy-ref-row">
        {/* A launch's rebate is a share of what the friend paid for the tokens, not of a fee. */}
        <span>{t(row.product === 'ieo' ? 'invite.ieoPaid' : 'invite.fee')}</span>
        <span>{amount(row.fee)}</span>
      </div>
      <div className="hy-ref-row">
        <span>{t('invite.tierRateUsed')}</span>
        <span data-testid="commission-tier">{tierAndRate()}</span>
      </div>
      <div className="hy-ref-row">
        <span>{t('invite.commission')}</span>
        <b data-testid="commission-amount">{amount(row.amount)}</b>
      </div>
      {Dec.parse(row.kickback).isZero() ? null : (
        <div className="hy-ref-row">
          <span>{t('invite.kickbackGiven')}</span>
          <span>{amount(row.kickback)}</span>
        </div>
      )}
      {/* Worked out with the fee, credited by the payout sweep every minute (a launch's rebate at once). */}
      <div className="hy-ref-row">
        <span>{t('invite.creditStatus')}</span>
        <span className={row.paidAt === null ? 'hy-muted' : undefined} data-testid="commission-credit">
          {row.paidAt === null
            ? t('invite.pending')
            : t('invite.credited', { time: formatDateTime(row.paidAt, locale) })}
        </span>
      </div>
      <div className="hy-ref-row">
        <span>{t('invite.trade')}</span>
        <span className="hy-muted">{row.tradeId}</span>
      </div>
      {row.excluded === null ? null : (
        <div className="hy-ref-reason" data-testid="commission-excluded">
          {t(`invite.excluded.${row.excluded}`)}
        </div>
      )}
    </div>
  );
}

/** Spec §2 filters: product, coin and dates, shared by the list and its CSV. */
function Filters({
  filter,
  onChange,
}: {
  filter: CommissionFilter;
  onChange(filter: CommissionFilter): void;
}) {
  const { t } = useTranslation();
  const coins = useReferralSummary().data?.byCoin.map((total) => total.coin) ?? [];
  const all = { label: t('invite.levelAll'), value: '' } as const;
  return (
    <div className="hy-ref-filters" data-testid="commission-filters">
      <Selector<ReferralProduct | ''>
        value={[filter.product]}
        onChange={(chosen) => onChange({ ...filter, product: chosen[0] ?? '' })}
        options={[
          all,
          ...REFERRAL_PRODUCTS.map((product) => ({
            label: t(`invite.product.${product}`),
            value: product,
          })),
        ]}
      />
      {coins.length > 1 ? (
        <Selector<string>
          value={[filter.coin]}
          onChange={(chosen) => onChange({ ...filter, coin: chosen[0] ?? '' })}
          options={[all, ...coins.map((coin) => ({ label: coin, value: coin }))]}
        />
      ) : null}
      <div className="hy-ref-dates">
        <label>
          {t('invite.from')}
          <input
            type="date"
            value={filter.fromDay}
            max={filter.toDay || undefined}
            onChange={(event) => onChange({ ...filter, fromDay: event.target.value })}
          />
        </label>
        <label>
          {t('invite.to')}
          <input
            type="date"
            value={filter.toDay}
            min={filter.fromDay || undefined}
            onChange={(event) => onChange({ ...filter, toDay: event.target.value })}
          />
        </label>
      </div>
    </div>
  );
}

/** Every commission the user earned (or was denied), filtered, paged, and as a CSV file. */
export function CommissionHistory() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<CommissionFilter>(NO_FILTER);
  const query = commissionQuery(filter);
  const commissions = useCommissions(query);
  const rows = commissions.data?.pages.flatMap((page) => page.list) ?? [];
  const download = () => downloadCommissions(query, 'halyard-commissions.csv').catch(() => undefined); // the client has shown the refusal
  return (
    <div className="hy-ref-list">
      <Filters filter={filter} onChange={setFilter} />
      <Button size="small" onClick={() => void download()} data-testid="commissions-csv">
        {t('invite.csv')}
      </Button>
      {rows.map((row) => (
        <CommissionRow key={row.id} row={row} />
      ))}
      {commissions.isSuccess && rows.length === 0 ? (
        <EmptyState>{t('invite.noCommissions')}</EmptyState>
      ) : null}
      <InfiniteScroll
        loadMore={async () => void (await commissions.fetchNextPage())}
        hasMore={commissions.hasNextPage}
      >
        {commissions.hasNextPage ? t('common.loading') : rows.length > 0 ? t('common.noMore') : ''}
      </InfiniteScroll>
    </div>
  );
}
