import type { Locale } from '@halyard/protocol';
import { Button, Popup } from 'antd-mobile';
import { QRCodeCanvas } from 'qrcode.react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/format.ts';
import { useReferralLink } from './api.ts';
import { directionKey, MONEY_DIGITS, modeKey, posterPercent, posterProfit, posterTheme } from './calc.ts';
import { downloadCanvas, drawPoster } from './poster.ts';
import type { Position } from './types.ts';

/**
 * Spec §2 position poster: profit percent (profit / margin × 100), direction,
 * margin mode, leverage, prices, profit and the referral link as a QR code;
 * the profit theme for zero or more, the loss theme below. Save draws the
 * same card on a canvas and downloads it as a PNG.
 */
export function PosterPopup({ position, onClose }: { position: Position | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const link = useReferralLink();
  const qrRef = useRef<HTMLCanvasElement>(null);
  if (!position) return null;
  const profit = posterProfit(position);
  const income = posterPercent(position);
  const theme = posterTheme(income);
  const signed = `${theme === 'profit' && !income.startsWith('-') ? '+' : ''}${income}%`;
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
  const title = `${position.tradcoin}/${position.maincoin} ${t('perp.perpetual')}`;
  const save = () => {
    const canvas = document.createElement('canvas');
    drawPoster(canvas, {
      theme,
      title,
      income: signed,
      rows,
      caption: t('perp.posterScan'),
      qr: qrRef.current,
    });
    downloadCanvas(canvas, `halyard-${position.tradcoin}-${position.autoid}.png`);
  };
  return (
    <Popup visible onMaskClick={onClose} bodyClassName="hy-fpopup" destroyOnClose>
      <div className={`hy-poster ${theme}`} data-testid="poster" data-theme={theme}>
        <div className="hy-poster-title">{title}</div>
        <div className="hy-poster-income" data-testid="poster-income">
          {signed}
        </div>
        <dl>
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <div className="hy-poster-foot">
          <div className="hy-poster-qr">
            {link.data ? <QRCodeCanvas value={link.data} size={96} ref={qrRef} marginSize={1} /> : null}
          </div>
          <span>{t('perp.posterScan')}</span>
        </div>
      </div>
      <Button block color="primary" onClick={save} data-testid="poster-save">
        {t('perp.saveImage')}
      </Button>
    </Popup>
  );
}
