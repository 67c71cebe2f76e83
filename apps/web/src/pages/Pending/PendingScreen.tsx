import { ClockCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { RouteDef } from '../../app/routes.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

/** The frame of a screen being built in this release by another part of the team. */
export function PendingScreen({ route }: { route: RouteDef }) {
  const { t } = useTranslation();
  return (
    <PageFrame title={t(route.title)}>
      <div className="hy-pending" data-testid="pending-screen">
        <ClockCircleOutline fontSize={48} color="var(--hy-accent)" />
        <h2>{t(route.title)}</h2>
        <p>{t('pending.message')}</p>
      </div>
    </PageFrame>
  );
}
