import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTeam } from '../../features/referral/api.ts';
import { copyText } from '../../shared/clipboard.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { CommissionHistory } from './CommissionHistory.tsx';
import { IncomeDetails } from './IncomeDetails.tsx';
import { TeamList } from './TeamList.tsx';
import '../../features/referral/referral.css';

const TABS = ['team', 'income', 'commissions'] as const;
type Tab = (typeof TABS)[number];

function isTab(value: string | null): value is Tab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/** Team size by level and the direct promotion code (the whole team's first page carries them). */
function TeamHeader() {
  const { t } = useTranslation();
  const team = useTeam(null, '').data?.pages[0];
  if (!team) return null;
  return (
    <section className="hy-ref-card" data-testid="team-header">
      <div className="hy-ref-stats">
        <div>
          <b data-testid="team-size">{team.teamSize}</b>
          <span>{t('invite.teamSize')}</span>
        </div>
        <div>
          <b>{team.directCount}</b>
          <span>{t('invite.direct')}</span>
        </div>
        <div>
          <b>{team.levelTwoCount}</b>
          <span>{t('invite.levelTwo')}</span>
        </div>
      </div>
      <div className="hy-ref-row">
        <span>{t('invite.promotionCode')}</span>
        <span className="hy-ref-copy">
          <b>{team.code}</b>
          <button type="button" className="hy-link" onClick={() => copyText(team.code, t('funds.copied'))}>
            {t('otc.copy')}
          </button>
        </span>
      </div>
    </section>
  );
}

/** /myTeam (spec §2 "My team: team size, direct promotion code, list, income details"; issue 17 records). */
export function MyTeamPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = isTab(tabParam) ? tabParam : 'team';
  return (
    <PageFrame title={t('route.myTeam')} fallback="/my">
      <div className="hy-ref" data-testid="my-team">
        <TeamHeader />
        <Tabs activeKey={tab} onChange={(key) => setParams({ tab: key }, { replace: true })}>
          <Tabs.Tab title={t('invite.tabTeam')} key="team">
            <TeamList />
          </Tabs.Tab>
          <Tabs.Tab title={t('invite.tabIncome')} key="income">
            <IncomeDetails />
          </Tabs.Tab>
          <Tabs.Tab title={t('invite.tabCommissions')} key="commissions">
            <CommissionHistory />
          </Tabs.Tab>
        </Tabs>
      </div>
    </PageFrame>
  );
}
