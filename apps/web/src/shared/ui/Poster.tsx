import { Button } from 'antd-mobile';
import { QRCodeCanvas } from 'qrcode.react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCanvas, drawPoster, type PosterContent } from '../poster.ts';
import './poster.css';

interface PosterProps {
  content: Omit<PosterContent, 'qr'>;
  /** What the QR code opens: the user's referral link (spec §2), absent while it loads. */
  link: string | undefined;
  /** The saved PNG's name. */
  fileName: string;
}

/**
 * A shareable card (spec §2: the position poster, the invitation poster) with
 * the referral link as a QR code; Save draws the same card on a canvas and
 * downloads it as a PNG.
 */
export function Poster({ content, link, fileName }: PosterProps) {
  const { t } = useTranslation();
  const qrRef = useRef<HTMLCanvasElement>(null);
  const save = () => {
    const canvas = document.createElement('canvas');
    drawPoster(canvas, { ...content, qr: qrRef.current });
    downloadCanvas(canvas, fileName);
  };
  return (
    <>
      <div className={`hy-poster ${content.theme}`} data-testid="poster" data-theme={content.theme}>
        <div className="hy-poster-title">{content.title}</div>
        <div className="hy-poster-headline" data-testid="poster-headline">
          {content.headline}
        </div>
        <dl>
          {content.rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <div className="hy-poster-foot">
          <div className="hy-poster-qr">
            {link ? <QRCodeCanvas value={link} size={96} ref={qrRef} marginSize={1} /> : null}
          </div>
          <span>{content.caption}</span>
        </div>
      </div>
      <Button block color="primary" onClick={save} disabled={!link} data-testid="poster-save">
        {t('poster.saveImage')}
      </Button>
    </>
  );
}
