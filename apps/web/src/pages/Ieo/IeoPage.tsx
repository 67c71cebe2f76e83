import type { IeoProject } from '@halyard/protocol';
import { Button, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useIeoList } from '../../features/ieo/api.ts';
import { ProjectCard } from '../../features/ieo/ProjectCard.tsx';
import { useServerNow } from '../../features/ieo/time.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/ieo/ieo.css';

type Tab = 'open' | 'upcoming' | 'ended';

/** Which tab a project's state belongs to (commit mode's calculating and distributing sit with "open"). */
function tabOf(project: IeoProject): Tab {
  if (project.state === 'not_open') return 'upcoming';
  if (project.state === 'ended' || project.state === 'cancelled') return 'ended';
  return 'open';
}

/** /ieo (spec §2 "Project list"): projects by state with countdowns and progress; my orders. */
export function IeoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useIeoList();
  const now = useServerNow(list.data?.[0]?.now);
  const [tab, setTab] = useState<Tab>('open');
  const shown = (list.data ?? []).filter((project) => tabOf(project) === tab);
  return (
    <PageFrame
      title={t('route.ieo')}
      right={
        <Button size="mini" fill="none" onClick={() => navigate('/ieoOrders')} data-testid="ieo-my-orders">
          {t('ieoPage.myOrders')}
        </Button>
      }
    >
      <Tabs activeKey={tab} onChange={(key) => setTab(key as Tab)}>
        <Tabs.Tab key="open" title={t('ieoPage.tab.open')} />
        <Tabs.Tab key="upcoming" title={t('ieoPage.tab.upcoming')} />
        <Tabs.Tab key="ended" title={t('ieoPage.tab.ended')} />
      </Tabs>
      <div className="hy-ieo-list">
        {shown.map((project) => (
          <ProjectCard
            key={project.id}
            project={project}
            now={now}
            onOpen={() => navigate(`/ieoDetail/${project.id}`)}
          />
        ))}
        {list.isSuccess && shown.length === 0 ? <EmptyState>{t('ieoPage.none')}</EmptyState> : null}
      </div>
    </PageFrame>
  );
}
