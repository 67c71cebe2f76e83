import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { Button, ProgressBar } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useCommits, useIeoList } from '../../features/ieo/api.ts';
import { progressPercent, WindowLine } from '../../features/ieo/ProjectCard.tsx';
import { SubscribeSheet } from '../../features/ieo/SubscribeSheet.tsx';
import { useServerNow } from '../../features/ieo/time.ts';
import { VestingCalendar } from '../../features/ieo/VestingCalendar.tsx';
import { useAuth } from '../../shared/auth-store.ts';
import { formatMoney } from '../../shared/format.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/ieo/ieo.css';

const percentOf = (fraction: string) => `${Dec.parse(fraction).mul(Dec.fromInt(100)).toString()} %`;

/** /ieo/:id: intro, announcement, terms, vesting calendar, progress and the subscribe sheet. */
export function IeoDetailPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const { id } = useParams();
  const signedIn = useAuth((state) => state.isLoggedIn);
  const list = useIeoList();
  const now = useServerNow(list.data?.[0]?.now);
  const project = list.data?.find((entry) => String(entry.id) === id);
  const [sheet, setSheet] = useState(false);
  const commits = useCommits(project?.id ?? 0, project?.mode === 'commit');
  if (!project)
    return (
      <PageFrame title={t('route.ieoDetail')} fallback="/ieo">
        {null}
      </PageFrame>
    );
  const open = project.state === 'open' && now >= project.startTime && now < project.endTime;
  const terms: [string, string][] = [
    [t(`ieoPage.mode.${project.mode}`), ''],
    [t('ieoPage.price'), project.payCoins.map((pay) => `${pay.price} ${pay.paycoin}`).join(' · ')],
    [t('ieoPage.total'), `${formatMoney(project.total, project.tokenDecimals, locale)} ${project.coin}`],
    [
      t('ieoPage.remaining'),
      `${formatMoney(project.remaining, project.tokenDecimals, locale)} ${project.coin}`,
    ],
    [t('ieoPage.perUser'), `${project.minNumber} – ${project.maxNumber} ${project.coin}`],
    [t('ieoPage.lockDays'), t('ieoPage.days', { days: Number(project.lockDays.toFixed(4)) })],
    [t('ieoPage.payCoin'), project.payCoins.map((pay) => pay.paycoin).join(', ')],
    [t('ieoPage.gift'), percentOf(project.gift)],
    [t('ieoPage.rebate'), percentOf(project.rebate)],
    [t('ieoPage.eligibility'), t(`ieoPage.kyc.${project.kycLevel}`)],
  ];
  if (project.refusedAreaCodes.length > 0)
    terms.push([
      t('ieoPage.refusedRegions', { codes: project.refusedAreaCodes.map((code) => `+${code}`).join(', ') }),
      '',
    ]);
  if (project.mode === 'commit') {
    terms.push(
      [
        t('ieoPage.committed'),
        `${formatMoney(project.committed, 8, locale)} ${project.payCoins[0]?.paycoin ?? ''}`,
      ],
      [t('ieoPage.participants'), String(project.participants)],
      [t('ieoPage.ratio', { ratio: project.ratio }), ''],
    );
  }
  return (
    <PageFrame title={`${project.coin} · ${project.name}`} fallback="/ieo">
      <section className="hy-ieo-section">
        <div className="hy-ieo-card-row">
          <b>{t(`ieoPage.state.${project.state}`)}</b>
          <span className="hy-num" data-testid="ieo-countdown">
            <WindowLine project={project} now={now} />
          </span>
        </div>
        <ProgressBar percent={progressPercent(project)} />
      </section>
      <section className="hy-ieo-section" data-testid="ieo-terms">
        <h4>{t('ieoPage.terms')}</h4>
        {terms.map(([label, value]) => (
          <div className="hy-ieo-card-row" key={label}>
            <span className="hy-muted">{label}</span>
            <span className="hy-num">{value}</span>
          </div>
        ))}
      </section>
      <section className="hy-ieo-section">
        <h4>{t('ieoPage.vesting')}</h4>
        <VestingCalendar vesting={project.vesting} endTime={project.endTime} />
      </section>
      {project.intro ? (
        <section className="hy-ieo-section">
          <h4>{t('ieoPage.intro')}</h4>
          {/* Sanitised by the server when the operator saved it (an allow-list of tags). */}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side */}
          <div className="hy-ieo-html" dangerouslySetInnerHTML={{ __html: project.intro }} />
        </section>
      ) : null}
      {project.announcement ? (
        <section className="hy-ieo-section">
          <h4>{t('ieoPage.announcement')}</h4>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side */}
          <div className="hy-ieo-html" dangerouslySetInnerHTML={{ __html: project.announcement }} />
        </section>
      ) : null}
      {project.mode === 'commit' && (commits.data?.length ?? 0) > 0 ? (
        <section className="hy-ieo-section" data-testid="ieo-commits">
          <h4>{t('ieoPage.commits')}</h4>
          {commits.data?.slice(0, 50).map((commit) => (
            <div className="hy-ieo-card-row" key={commit.anonId}>
              <span className="hy-muted hy-num">{commit.anonId}</span>
              <span className="hy-num">
                {commit.committed}
                {commit.tokens !== null ? ` → ${commit.tokens} ${project.coin}` : ''}
              </span>
            </div>
          ))}
        </section>
      ) : null}
      {open ? (
        <div className="hy-ieo-footer">
          {signedIn ? (
            <Button block color="primary" onClick={() => setSheet(true)} data-testid="ieo-subscribe">
              {t(project.mode === 'commit' ? 'ieoPage.commit' : 'ieoPage.subscribe')}
            </Button>
          ) : (
            <Button block color="primary" onClick={() => navigate('/login')}>
              {t('ieoPage.loginToSubscribe')}
            </Button>
          )}
        </div>
      ) : null}
      {signedIn ? <SubscribeSheet project={project} visible={sheet} onClose={() => setSheet(false)} /> : null}
    </PageFrame>
  );
}
