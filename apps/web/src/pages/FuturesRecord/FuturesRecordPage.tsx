import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRecordPage, type RecordKind } from '../../features/futures/api.ts';
import { ClosedPositionCard, EntrustCard } from '../../features/futures/Cards.tsx';
import { PosterPopup } from '../../features/futures/PosterPopup.tsx';
import type { Entrust, Page, Position } from '../../features/futures/types.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/futures/futures.css';

const PAGE_SIZE = 10;

function useRecords<T>(kind: RecordKind) {
  return useInfiniteQuery({
    queryKey: ['futures', 'record', kind],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => fetchRecordPage(kind, pageParam, PAGE_SIZE) as Promise<Page<T>>,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((total, page) => total + page.list.length, 0);
      return loaded < last.count ? last.page + 1 : undefined;
    },
  });
}

function More({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): unknown };
}) {
  const { t } = useTranslation();
  if (!query.hasNextPage) return <div className="hy-fempty">{t('common.noMore')}</div>;
  return (
    <Button block fill="none" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
      {t('perp.loadMore')}
    </Button>
  );
}

/** Spec §2 /futuresRecord: finished entrusts and closed positions (tapping one opens its poster), paged. */
export function FuturesRecordPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<RecordKind>('entrusts');
  const [poster, setPoster] = useState<Position | null>(null);
  const client = useQueryClient();
  const entrusts = useRecords<Entrust>('entrusts');
  const positions = useRecords<Position>('positions');
  return (
    <PageFrame title={t('route.futuresRecord')} fallback="/futures">
      <div className="hy-futures" data-testid="futures-record">
        <Tabs
          activeKey={kind}
          onChange={(key) => {
            setKind(key as RecordKind);
            void client.invalidateQueries({ queryKey: ['futures', 'record', key] });
          }}
        >
          <Tabs.Tab title={t('perp.entrustHistory')} key="entrusts" />
          <Tabs.Tab title={t('perp.positionHistory')} key="positions" />
        </Tabs>
        {kind === 'entrusts' ? (
          <>
            {(entrusts.data?.pages ?? []).flatMap((page) =>
              page.list.map((entrust) => <EntrustCard key={entrust.autoid} entrust={entrust} />),
            )}
            <More query={entrusts} />
          </>
        ) : (
          <>
            {(positions.data?.pages ?? []).flatMap((page) =>
              page.list.map((position) => (
                <ClosedPositionCard
                  key={position.autoid}
                  position={position}
                  onPoster={() => setPoster(position)}
                />
              )),
            )}
            <More query={positions} />
          </>
        )}
      </div>
      <PosterPopup position={poster} onClose={() => setPoster(null)} />
    </PageFrame>
  );
}
