import { HALYARD_VERSION, isNewerVersion } from '@halyard/protocol';
import { Dialog } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../shared/ui/toast.ts';
import { useVersions } from '../content/api.ts';
import { applyUpdate, useInstallable } from './installable.ts';

/** While the app stays open, how often it asks whether the server runs a newer release. */
const UPDATE_CHECK_MS = 30 * 60_000;

/**
 * Spec §3 version data and §8 "app update": offers the update when the server
 * runs a newer release than this build (`nowCode` of /home/versions), or when
 * a new service worker is waiting. Asked again whenever the app comes back to
 * the foreground, and now and then while it stays there.
 */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const { data: versions, refetch } = useVersions();
  const workerWaiting = useInstallable((state) => state.workerWaiting);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [updating, setUpdating] = useState(false);

  useEffect(() => {
    const check = () => {
      if (document.visibilityState === 'visible') void refetch();
    };
    document.addEventListener('visibilitychange', check);
    const timer = window.setInterval(check, UPDATE_CHECK_MS);
    return () => {
      document.removeEventListener('visibilitychange', check);
      window.clearInterval(timer);
    };
  }, [refetch]);

  const newer = versions && isNewerVersion(versions.nowCode, HALYARD_VERSION) ? versions : null;
  const offer = newer ? newer.nowCode : workerWaiting ? 'worker' : null;

  const update = async () => {
    setUpdating(true);
    const outcome = await applyUpdate();
    if (outcome === 'reloading') return;
    setUpdating(false);
    toast(t(outcome === 'offline' ? 'update.offline' : 'update.failed'));
  };

  return (
    <Dialog
      visible={offer !== null && offer !== dismissed}
      title={t('update.available')}
      content={
        <div data-testid="update-prompt">
          {newer ? <p>{t('update.version', { current: HALYARD_VERSION, version: newer.nowCode })}</p> : null}
          {newer?.notes ? <p style={{ whiteSpace: 'pre-line' }}>{newer.notes}</p> : null}
        </div>
      }
      actions={[
        [
          { key: 'later', text: t('update.later'), onClick: () => setDismissed(offer) },
          {
            key: 'now',
            text: t('update.now'),
            bold: true,
            disabled: updating,
            onClick: () => void update(),
          },
        ],
      ]}
    />
  );
}
