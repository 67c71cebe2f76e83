import { SpinLoading } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useVersions } from '../features/content/api.ts';
import { useLoading } from '../shared/loading.ts';

/** AMENDMENTS A5: when the server runs on play money, every screen says so. */
export function DemoBadge() {
  const { t } = useTranslation();
  const { data } = useVersions();
  const demo = data?.demo === true;
  useEffect(() => {
    // Until the answer is in, the page keeps the room the server reserved (web-app.ts marks demo pages).
    if (data) document.documentElement.classList.toggle('hy-demo', demo);
  }, [data, demo]);
  if (!demo) return null;
  return (
    <div className="hy-demo-badge" data-testid="demo-badge" role="status">
      <b>DEMO</b>
      <span>{t('demo.strip')}</span>
    </div>
  );
}

/** The global spinner of write calls (spec §2). */
export function GlobalSpinner() {
  const visible = useLoading((state) => state.visible);
  if (!visible) return null;
  return (
    <div className="hy-spinner" role="progressbar">
      <div className="hy-spinner-box">
        <SpinLoading color="primary" />
      </div>
    </div>
  );
}
