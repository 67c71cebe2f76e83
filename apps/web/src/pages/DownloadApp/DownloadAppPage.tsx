import { Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useVersions } from '../../features/content/api.ts';
import { isInstalledApp, isIos, useInstallable } from '../../features/pwa/installable.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/**
 * Spec §2 /downloadApp: installs the web app on this device (the browser's own
 * offer where it makes one, the Share-menu steps on iOS, the browser menu
 * elsewhere), and links the operator's native apps when it has any.
 */
export function DownloadAppPage() {
  const { t } = useTranslation();
  const { data: versions } = useVersions();
  const installPrompt = useInstallable((state) => state.installPrompt);
  const installed = useInstallable((state) => state.installed);

  const install = async () => {
    if (!installPrompt) return;
    try {
      await installPrompt.prompt();
      const { outcome } = await installPrompt.userChoice;
      // An offer can be shown once; the browser makes a new one if it still may.
      useInstallable.setState({ installPrompt: null, installed: outcome === 'accepted' });
    } catch {
      toast(t('download.failed'));
    }
  };

  const nativeApps = [
    { key: 'android', url: versions?.androidUrl ?? '', label: t('download.android') },
    { key: 'ios', url: versions?.iosUrl ?? '', label: t('download.ios') },
  ].filter((app) => app.url !== '');

  return (
    <PageFrame title={t('route.downloadApp')} fallback="/setting">
      <div className="hy-card" style={{ padding: 16, textAlign: 'center' }}>
        <img src="/icons/icon-192.png" width={72} height={72} alt="" style={{ borderRadius: 16 }} />
        <h2 style={{ margin: '12px 0 8px' }}>Halyard</h2>
        {isInstalledApp() ? (
          <p data-testid="download-running">{t('download.running')}</p>
        ) : installed ? (
          <p data-testid="download-installed">{t('download.installed')}</p>
        ) : (
          <>
            <p>{t('download.intro')}</p>
            {installPrompt ? (
              <Button
                block
                color="primary"
                size="large"
                onClick={() => void install()}
                data-testid="download-install"
              >
                {t('download.install')}
              </Button>
            ) : (
              <p data-testid="download-steps" style={{ color: 'var(--hy-muted)' }}>
                {t(isIos() ? 'download.iosSteps' : 'download.browserSteps')}
              </p>
            )}
          </>
        )}
      </div>
      {nativeApps.length > 0 ? (
        <div className="hy-card" data-testid="native-apps">
          <List header={t('download.native')}>
            {nativeApps.map((app) => (
              <List.Item key={app.key}>
                <a href={app.url} target="_blank" rel="noopener noreferrer">
                  {app.label}
                </a>
              </List.Item>
            ))}
          </List>
        </div>
      ) : null}
    </PageFrame>
  );
}
