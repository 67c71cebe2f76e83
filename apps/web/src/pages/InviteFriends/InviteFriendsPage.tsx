import type { InvitationUrl, Locale, ReferralSummary } from '@halyard/protocol';
import { ProgressBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useInvitation, useReferralSummary } from '../../features/referral/api.ts';
import {
  formatAmount,
  percentText,
  ratePercent,
  tierProgress,
  topRate,
} from '../../features/referral/format.ts';
import { copyText } from '../../shared/clipboard.ts';
import { formatDateTime } from '../../shared/format.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { Poster } from '../../shared/ui/Poster.tsx';
import { ReferralSettings } from './ReferralSettings.tsx';
import { RewardRules } from './RewardRules.tsx';
import '../../features/referral/referral.css';

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="hy-ref-row">
      <span>{label}</span>
      <span className="hy-ref-copy">
        <b data-testid={testId}>{value}</b>
        <button
          type="button"
          className="hy-link"
          onClick={() => copyText(value, t('funds.copied'))}
          aria-label={`${t('otc.copy')} ${label}`}
        >
          {t('otc.copy')}
        </button>
      </span>
    </div>
  );
}

/** The code and link with copy, and the poster: the link as a QR code, saved as a PNG. */
function Invitation({
  invitation,
  summary,
}: {
  invitation: InvitationUrl;
  summary: ReferralSummary | undefined;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const rows: [string, string][] = [[t('my.invitationCode'), invitation.code]];
  if (summary) {
    rows.push(
      [
        t('invite.posterRebate'),
        t('invite.upToPercent', { rate: ratePercent(topRate(summary.rules), locale) }),
      ],
      [t('invite.posterDiscount'), percentText(summary.rules.halDiscount, locale)],
    );
  }
  return (
    <>
      <section className="hy-ref-card" data-testid="invitation">
        <CopyRow label={t('my.invitationCode')} value={invitation.code} testId="invitation-code" />
        <CopyRow label={t('invite.link')} value={invitation.url} testId="invitation-link" />
      </section>
      <section className="hy-ref-card">
        <h3>{t('invite.poster')}</h3>
        <Poster
          content={{
            theme: 'invite',
            title: t('invite.posterTitle'),
            headline: invitation.code,
            rows,
            caption: t('poster.scan'),
          }}
          link={invitation.url}
          fileName={`halyard-invite-${invitation.code}.png`}
        />
      </section>
    </>
  );
}

/** The live tier: today's (from yesterday's 24 h average), the average now and what the next tier needs. */
function Tier({ summary }: { summary: ReferralSummary }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const next = summary.nextTier;
  return (
    <section className="hy-ref-card" data-testid="referral-tier">
      <h3>{t('invite.myTier')}</h3>
      <div className="hy-ref-tier">
        <span className="hy-ref-big">{t('invite.tierName', { tier: summary.tier })}</span>
        <span>{t('invite.tierRate', { rate: ratePercent(summary.rate, locale) })}</span>
      </div>
      <p>
        {t('invite.tierToday', {
          amount: formatAmount(summary.tierAverageHal, locale),
          until: formatDateTime(summary.tierUntil, locale),
        })}
      </p>
      <div className="hy-ref-row">
        <span>{t('invite.averageNow')}</span>
        <span data-testid="average-hal">{formatAmount(summary.averageHal, locale)} HAL</span>
      </div>
      <div className="hy-ref-row">
        <span>{t('invite.holdingNow')}</span>
        <span>{formatAmount(summary.holdingHal, locale)} HAL</span>
      </div>
      {next ? (
        <>
          <ProgressBar percent={tierProgress(summary.averageHal, next.minHoldings)} />
          <p data-testid="next-tier">
            {t('invite.nextTier', {
              missing: formatAmount(next.missing, locale),
              tier: next.tier,
              rate: ratePercent(next.rate, locale),
            })}
          </p>
        </>
      ) : (
        <p data-testid="next-tier">{t('invite.topTier')}</p>
      )}
    </section>
  );
}

/** /inviteFriends (spec §2 "Invite friends: code, link, poster, reward rules"; issue 17). */
export function InviteFriendsPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const invitation = useInvitation();
  const summary = useReferralSummary();
  return (
    <PageFrame
      title={t('route.inviteFriends')}
      fallback="/my"
      right={<Link to="/myTeam">{t('route.myTeam')}</Link>}
    >
      <div className="hy-ref" data-testid="invite-friends">
        <section className="hy-ref-card hy-ref-hero">
          <h2>{t('home.inviteTitle')}</h2>
          {summary.data ? (
            <span className="hy-ref-big">
              {t('invite.upToPercent', { rate: ratePercent(topRate(summary.data.rules), locale) })}
            </span>
          ) : null}
          <p>{t('home.inviteText')}</p>
        </section>
        {invitation.data ? <Invitation invitation={invitation.data} summary={summary.data} /> : null}
        {summary.data ? (
          <>
            <Tier summary={summary.data} />
            <RewardRules summary={summary.data} />
            <ReferralSettings summary={summary.data} />
          </>
        ) : null}
      </div>
    </PageFrame>
  );
}
