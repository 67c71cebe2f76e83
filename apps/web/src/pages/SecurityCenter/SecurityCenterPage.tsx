import type { Locale } from '@halyard/protocol';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '../../features/identity/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

/** Login password, fund password, phone and email, each with its state (spec §2 Security center). */
export function SecurityCenterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useUserInfo();
  const state = (done: boolean, value?: string | null) => (
    <span className={done ? '' : 'hy-muted'}>
      {done ? (value ?? t('security.set')) : t('security.notSet')}
    </span>
  );
  return (
    <PageFrame title={t('route.securityCenter')} fallback="/my">
      <div className="hy-card">
        <List>
          <List.Item
            onClick={() => navigate('/modifyLoginPass')}
            extra={state(user?.hasLoginPassword ?? false)}
          >
            {t('security.loginPassword')}
          </List.Item>
          <List.Item onClick={() => navigate('/modifyPayPass')} extra={state(user?.hasFundPassword ?? false)}>
            {t('security.fundPassword')}
          </List.Item>
          <List.Item onClick={() => navigate('/bindPhone')} extra={state(Boolean(user?.phone), user?.phone)}>
            {t('security.phone')}
          </List.Item>
          <List.Item onClick={() => navigate('/bindEmail')} extra={state(Boolean(user?.email), user?.email)}>
            {t('security.email')}
          </List.Item>
        </List>
      </div>
      {user?.lockedUntil ? (
        <p className="hy-muted" style={{ fontSize: 12 }}>
          {t('security.locked', { time: formatDateTime(user.lockedUntil, i18n.language as Locale) })}
        </p>
      ) : null}
    </PageFrame>
  );
}
