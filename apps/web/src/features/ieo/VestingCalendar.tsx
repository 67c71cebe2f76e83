import { Dec } from '@halyard/money';
import type { IeoVesting, Locale } from '@halyard/protocol';
import { planIeoTranches } from '@halyard/rules';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format.ts';

/**
 * When each tranche releases and what share of the tokens it carries, or the
 * span of a linear release (the server locks by the same plan).
 */
export function VestingCalendar({ vesting, endTime }: { vesting: IeoVesting; endTime: number }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const tranches = planIeoTranches(Dec.fromInt(100), vesting, endTime, 2);
  return (
    <div className="hy-ieo-calendar" data-testid="ieo-vesting">
      {tranches.map((tranche) => (
        <div className="hy-ieo-card-row" key={tranche.seq}>
          <span className="hy-muted">
            {tranche.until === null
              ? `${t('ieoPage.tranche', { n: tranche.seq })} · ${formatDateTime(tranche.releaseAt, locale)}`
              : t('ieoPage.linear', {
                  from: formatDateTime(tranche.releaseAt, locale),
                  to: formatDateTime(tranche.until, locale),
                })}
          </span>
          <span className="hy-num">{tranche.amount.toString()} %</span>
        </div>
      ))}
    </div>
  );
}
