import type { Locale, ReferralLevel } from '@halyard/protocol';
import { InfiniteScroll, SearchBar, Selector, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTeam } from '../../features/referral/api.ts';
import { coinAmounts } from '../../features/referral/format.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';

type LevelChoice = 'all' | '1' | '2';

/** The team members (spec §3 "Team member"), level 1 and 2, searched by user id, loaded page by page. */
export function TeamList() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [level, setLevel] = useState<LevelChoice>('all');
  const [search, setSearch] = useState('');
  const query = useTeam(level === 'all' ? null : (Number(level) as ReferralLevel), search);
  const members = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <div className="hy-ref-list">
      <Selector<LevelChoice>
        value={[level]}
        onChange={(chosen) => setLevel(chosen[0] ?? 'all')}
        options={[
          { label: t('invite.levelAll'), value: 'all' },
          { label: t('invite.direct'), value: '1' },
          { label: t('invite.levelTwo'), value: '2' },
        ]}
      />
      <SearchBar
        placeholder={t('invite.searchId')}
        onSearch={(text) => setSearch(text.trim())}
        onClear={() => setSearch('')}
        data-testid="team-search"
      />
      {members.map((member) => (
        <div className="hy-ref-item" key={`${member.level}-${member.userId}`} data-testid="team-member">
          <div className="hy-ref-item-head">
            <b>{member.userId}</b>
            <Tag color={member.level === 1 ? 'primary' : 'default'} fill="outline">
              {t(member.level === 1 ? 'invite.direct' : 'invite.levelTwo')}
            </Tag>
            <span className="hy-muted">{formatDateTime(member.invitedAt, locale)}</span>
          </div>
          <div className="hy-ref-row">
            <span>{t('invite.earned')}</span>
            <span>≈ {formatMoney(member.profitUsdt, 2, locale)} USDT</span>
          </div>
          {Object.keys(member.profit).length > 0 ? (
            <div className="hy-ref-row">
              <span />
              <span className="hy-muted">{coinAmounts(member.profit, locale)}</span>
            </div>
          ) : null}
        </div>
      ))}
      {query.isSuccess && members.length === 0 ? (
        <EmptyState>{t(search === '' ? 'invite.noTeam' : 'invite.noMatch')}</EmptyState>
      ) : null}
      <InfiniteScroll loadMore={async () => void (await query.fetchNextPage())} hasMore={query.hasNextPage}>
        {query.hasNextPage ? t('common.loading') : members.length > 0 ? t('common.noMore') : ''}
      </InfiniteScroll>
    </div>
  );
}
