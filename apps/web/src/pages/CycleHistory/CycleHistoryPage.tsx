import { useTranslation } from 'react-i18next';
import { useCycleSymbols, useHistory } from '../../features/cycle/api.ts';
import { PositionList } from '../../features/cycle/OrderLists.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/cycle/cycle.css';

/** Every settled cycle order of the user, 15 a page with load-more, each with its prices, times and source. */
export function CycleHistoryPage() {
  const { t } = useTranslation();
  const history = useHistory(null, true);
  const symbols = useCycleSymbols();
  const accuracyOf = (position: { tradcoin: string; maincoin: string }) =>
    symbols.data?.find((pair) => pair.tradcoin === position.tradcoin && pair.maincoin === position.maincoin)
      ?.price_accuracy ?? 2;
  return (
    <PageFrame title={t('route.cycleHistory')} fallback="/cycle">
      <div className="hy-cycle" data-testid="cycle-history">
        <PositionList
          positions={(history.data?.pages ?? []).flatMap((page) => page.list)}
          priceAccuracy={accuracyOf}
          more={{
            hasMore: history.hasNextPage,
            loading: history.isFetchingNextPage,
            load: () => void history.fetchNextPage(),
          }}
        />
      </div>
    </PageFrame>
  );
}
