import type { Locale, ReferralSummary } from '@halyard/protocol';
import { useTranslation } from 'react-i18next';
import { percentText, ratePercent, tierRange } from '../../features/referral/format.ts';

/**
 * Spec §9 reward rules as the server applies them: the tier table with the
 * user's tier marked, how the tier is measured, level 2 and its base, the
 * coin paid in, how often it is credited, the exclusions and the partners' note.
 */
export function RewardRules({ summary }: { summary: ReferralSummary }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { rules } = summary;
  return (
    <section className="hy-ref-card" data-testid="reward-rules">
      <h3>{t('invite.rules')}</h3>
      <div className="hy-ref-tiers">
        {rules.tiers.map((tier, index) => {
          const range = tierRange(rules, index, locale);
          const current = tier.tier === summary.tier ? 'current' : undefined;
          return [
            <span key={`range-${tier.tier}`} className={current}>
              {t('invite.tierName', { tier: tier.tier })} · {t(range.key, { min: range.min, max: range.max })}
            </span>,
            <span key={`rate-${tier.tier}`} className={current}>
              {percentText(tier.rate, locale)}
            </span>,
          ];
        })}
      </div>
      <ul className="hy-ref-rules">
        <li>{t('invite.ruleAverage', { hours: rules.averageWindowHours })}</li>
        <li>{t('invite.ruleLevelTwo', { rate: ratePercent(rules.levelTwoRate, locale) })}</li>
        <li>{t('invite.ruleBase')}</li>
        <li>{t('invite.rulePayout', { seconds: rules.payoutIntervalSeconds })}</li>
        <li>{t('invite.ruleDiscount', { discount: ratePercent(rules.halDiscount, locale) })}</li>
        <li>{t('invite.ruleExclusions')}</li>
        <li>{t('invite.rulePartners')}</li>
      </ul>
    </section>
  );
}
