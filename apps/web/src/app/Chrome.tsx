import { SpinLoading } from 'antd-mobile';
import { useVersions } from '../features/content/api.ts';
import { useLoading } from '../shared/loading.ts';

/** AMENDMENTS A5: when the server runs on play money, every screen says so. */
export function DemoBadge() {
  const { data } = useVersions();
  if (!data?.demo) return null;
  return (
    <div className="hy-demo-badge" data-testid="demo-badge">
      DEMO
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
