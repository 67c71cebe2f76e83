import { HALYARD_VERSION, isNewerVersion, LOCALES, type Locale } from '@halyard/protocol';
import { Button, CheckList, Dialog, List, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useVersions } from '../../features/content/api.ts';
import { identityApi } from '../../features/identity/api.ts';
import { setLocale } from '../../i18n/index.ts';
import { LOCALE_NAMES } from '../../i18n/locale.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

/** Settings (spec §2): language, version, logout with confirmation. */
export function SettingPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useAuth((state) => state.isLoggedIn);
  const { data: versions } = useVersions();
  const [picking, setPicking] = useState(false);
  const locale = i18n.language as Locale;

  const logout = async () => {
    const confirmed = await Dialog.confirm({
      content: t('setting.logoutConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    // The session ends on this device whatever the server answers.
    await identityApi.logout().catch(() => null);
    useAuth.getState().signOut();
    navigate('/', { replace: true });
  };

  // Spec §3 version data: this build against the release the server runs.
  const updateAvailable = versions && isNewerVersion(versions.nowCode, HALYARD_VERSION);
  return (
    <PageFrame title={t('route.setting')}>
      <div className="hy-card">
        <List>
          <List.Item onClick={() => setPicking(true)} extra={LOCALE_NAMES[locale]} data-testid="language">
            {t('setting.language')}
          </List.Item>
          <List.Item
            extra={
              <span>
                {HALYARD_VERSION}
                {updateAvailable ? (
                  <span className="hy-tag" style={{ marginLeft: 6 }}>
                    {t('setting.update', { version: versions.nowCode })}
                  </span>
                ) : null}
              </span>
            }
          >
            {t('setting.version')}
          </List.Item>
          <List.Item onClick={() => navigate('/downloadApp')} data-testid="download-app">
            {t('route.downloadApp')}
          </List.Item>
        </List>
      </div>
      {loggedIn ? (
        <Button
          block
          size="large"
          color="danger"
          fill="outline"
          onClick={() => void logout()}
          data-testid="logout"
        >
          {t('setting.logout')}
        </Button>
      ) : null}
      <Popup
        visible={picking}
        onMaskClick={() => setPicking(false)}
        bodyStyle={{ borderRadius: '12px 12px 0 0', paddingBottom: 16 }}
      >
        <div style={{ padding: '14px 16px 6px', fontWeight: 600 }}>{t('setting.language')}</div>
        <CheckList
          value={[locale]}
          onChange={(value) => {
            const chosen = value[0];
            setPicking(false);
            if (typeof chosen === 'string') void setLocale(chosen as Locale);
          }}
        >
          {LOCALES.map((code) => (
            <CheckList.Item key={code} value={code}>
              {LOCALE_NAMES[code]}
            </CheckList.Item>
          ))}
        </CheckList>
      </Popup>
    </PageFrame>
  );
}
