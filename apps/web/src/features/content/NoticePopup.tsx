import type { Locale } from '@halyard/protocol';
import { Popup } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format.ts';
import type { Notice } from './api.ts';

/** A notice in the right-side popup (spec §2 Home): title, date, HTML body the server has sanitised. */
export function NoticePopup({ notice, onClose }: { notice: Notice | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  return (
    <Popup
      visible={notice !== null}
      position="right"
      onMaskClick={onClose}
      onClose={onClose}
      bodyStyle={{ width: '100vw', maxWidth: 480, background: 'var(--hy-bg)', overflowY: 'auto' }}
    >
      {notice ? (
        <article style={{ padding: '16px 16px 32px' }} data-testid="notice-detail">
          <button
            type="button"
            onClick={onClose}
            aria-label={t('common.close')}
            className="hy-icon-button"
            style={{ border: 0, marginBottom: 12 }}
          >
            <CloseOutline />
          </button>
          <h2 style={{ margin: '0 0 6px', fontSize: 20 }}>{notice.title}</h2>
          <div className="hy-muted" style={{ fontSize: 12, marginBottom: 16 }}>
            {formatDateTime(notice.wdate, i18n.language as Locale)}
          </div>
          {/* The server sanitises notice HTML on the way in and on the way out (content module). */}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side */}
          <div className="hy-notice-body" dangerouslySetInnerHTML={{ __html: notice.reply }} />
        </article>
      ) : null}
    </Popup>
  );
}
