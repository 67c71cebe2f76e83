import { Dec } from '@halyard/money';
import type { IeoProject, Locale } from '@halyard/protocol';
import { ProgressBar, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { formatLeft } from './time.ts';

/** Sold ÷ total (FCFS) or committed ÷ what the supply is worth, capped at 100 (commit mode). */
export function progressPercent(project: IeoProject): number {
  if (project.mode === 'commit')
    return Math.min(100, Number(Dec.parse(project.ratio).mul(Dec.fromInt(100)).floorTo(0).toString()));
  const total = Dec.parse(project.total);
  if (!total.isPositive()) return 0;
  const sold = total.sub(Dec.parse(project.remaining));
  return Number(sold.mul(Dec.fromInt(100)).div(total).floorTo(0).toString());
}

/** "Starts in …" / "Ends in …" / "Ended …" on the server's clock. */
export function WindowLine({ project, now }: { project: IeoProject; now: number }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (now < project.startTime)
    return <>{t('ieoPage.startsIn', { time: formatLeft(project.startTime - now) })}</>;
  if (now < project.endTime && project.state !== 'cancelled')
    return <>{t('ieoPage.endsIn', { time: formatLeft(project.endTime - now) })}</>;
  return <>{t('ieoPage.endedAt', { time: formatDateTime(project.endTime, locale) })}</>;
}

export function ProjectCard({ project, now, onOpen }: { project: IeoProject; now: number; onOpen(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const pay = project.payCoins[0];
  return (
    <button type="button" className="hy-ieo-card" onClick={onOpen} data-testid={`ieo-card-${project.coin}`}>
      <div className="hy-ieo-card-head">
        <b>{project.coin}</b>
        <span className="hy-muted">{project.name}</span>
        <Tag color={project.state === 'open' ? 'success' : 'default'} fill="outline">
          {t(`ieoPage.state.${project.state}`)}
        </Tag>
      </div>
      <div className="hy-ieo-card-row">
        <span className="hy-muted">{t(`ieoPage.mode.${project.mode}`)}</span>
        <span className="hy-num" data-testid="ieo-countdown">
          <WindowLine project={project} now={now} />
        </span>
      </div>
      {pay && (
        <div className="hy-ieo-card-row">
          <span className="hy-muted">{t('ieoPage.price')}</span>
          <span className="hy-num">
            {pay.price} {pay.paycoin}
          </span>
        </div>
      )}
      <div className="hy-ieo-card-row">
        <span className="hy-muted">{t('ieoPage.total')}</span>
        <span className="hy-num">
          {formatMoney(project.total, project.tokenDecimals, locale)} {project.coin}
        </span>
      </div>
      {project.mode === 'commit' && Dec.parse(project.ratio).gt(Dec.ONE) ? (
        <div className="hy-ieo-card-row">
          <span className="hy-muted">{t('ieoPage.committed')}</span>
          <span className="hy-num hy-up">{t('ieoPage.ratio', { ratio: project.ratio })}</span>
        </div>
      ) : null}
      <ProgressBar percent={progressPercent(project)} />
    </button>
  );
}
