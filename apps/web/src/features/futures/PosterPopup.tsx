import type { Locale } from '@halyard/protocol';
import { Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/format.ts';
import { Poster } from '../../shared/ui/Poster.tsx';
import { useReferralLink } from '../referral/api.ts';
import { directionKey, MONEY_DIGITS, modeKey, posterPercent, posterProfit, posterTheme } from './calc.ts';
import type { Position } from './types.ts';

/**
 * Spec §2 position poster: profit percent (profit / margin × 100), direction,
 * margin mode, leverage, prices, profit and the referral link as a QR code;
 * the profit theme for zero or more, the loss theme below.
 */
export function PosterPopup({ position, onClose }: { position: Position | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const link = useReferralLink();
  if (!position) return null;
  const profit = posterProfit(position);
  const income = posterPercent(position);
  const theme = posterTheme(income);
  const closed = position.closedate !== null;
  const rows: [string, string][] = [
    [
      t('perp.direction'),
      `${t(directionKey(position.type))} · ${t(modeKey(position.tdMode))} · ${position.lever}×`,
    ],
    [t('perp.openPrice'), formatMoney(position.price, position.point, locale)],
    [
      t(closed ? 'perp.closePrice' : 'perp.markPrice'),
      formatMoney(closed ? position.close_price : position.mark_price, position.point, locale),
    ],
    [t('perp.profit'), `${formatMoney(profit, MONEY_DIGITS, locale)} ${position.maincoin}`],
  ];
  return (
    <Popup visible onMaskClick={onClose} bodyClassName="hy-fpopup" destroyOnClose>
      <Poster
        content={{
          theme,
          title: `${position.tradcoin}/${position.maincoin} ${t('perp.perpetual')}`,
          headline: `${theme === 'profit' && !income.startsWith('-') ? '+' : ''}${income}%`,
          rows,
          caption: t('poster.scan'),
        }}
        link={link.data}
        fileName={`halyard-${position.tradcoin}-${position.autoid}.png`}
      />
    </Popup>
  );
}
