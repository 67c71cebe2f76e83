import type { Locale } from '@halyard/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { InfiniteScroll, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notice, Page } from '../../features/content/api.ts';
import { NoticePopup } from '../../features/content/NoticePopup.tsx';
import { formatDate } from '../../shared/format.ts';
import { api } from '../../shared/http.ts';
import { nextPage } from '../../shared/paging.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

const PAGE_SIZE = 15;

export function NoticePage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [open, setOpen] = useState<Notice | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['noticePages', locale],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<Page<Notice>>('/home/articles', { page: pageParam, limit: PAGE_SIZE }),
    getNextPageParam: nextPage,
  });
  const notices = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <PageFrame title={t('route.notice')}>
      {notices.length === 0 && !query.isLoading ? (
        <EmptyState>{t('home.noNotices')}</EmptyState>
      ) : (
        <div className="hy-card">
          <List>
            {notices.map((notice) => (
              <List.Item
                key={notice.id}
                onClick={() => setOpen(notice)}
                description={formatDate(notice.wdate, locale)}
                arrowIcon
              >
                {notice.title}
              </List.Item>
            ))}
          </List>
        </div>
      )}
      <InfiniteScroll
        loadMore={async () => {
          await query.fetchNextPage();
        }}
        hasMore={query.hasNextPage}
      >
        {query.hasNextPage ? t('common.loading') : notices.length > 0 ? t('common.noMore') : ''}
      </InfiniteScroll>
      <NoticePopup notice={open} onClose={() => setOpen(null)} />
    </PageFrame>
  );
}
