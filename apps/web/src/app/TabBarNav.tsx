import { TabBar } from 'antd-mobile';
import { AppOutline, BillOutline, ClockCircleOutline, HistogramOutline } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type RouteDef, routeByName, showsTabBar, TABS } from './routes.ts';

/** Spec §2: the bar stays a moment after leaving a tab screen, so it does not vanish mid-slide. */
export const TAB_BAR_HIDE_DELAY_MS = 300;

const ICONS = {
  home: <AppOutline />,
  coinExchange: <HistogramOutline />,
  cycle: <ClockCircleOutline />,
  balances: <BillOutline />,
};

function useDelayedVisibility(wanted: boolean): boolean {
  const [visible, setVisible] = useState(wanted);
  useEffect(() => {
    if (wanted) {
      setVisible(true);
      return;
    }
    const timer = setTimeout(() => setVisible(false), TAB_BAR_HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  return visible;
}

export function TabBarNav({ route }: { route: RouteDef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const visible = useDelayedVisibility(showsTabBar(route));
  return (
    <nav className={`hy-tabbar${visible ? '' : ' hidden'}`} aria-hidden={!visible}>
      <TabBar
        activeKey={route.name}
        onChange={(key) => navigate(routeByName(key as RouteDef['name'] & 'home').path)}
      >
        {TABS.map((name) => (
          <TabBar.Item key={name} icon={ICONS[name]} title={t(`tab.${name}`)} />
        ))}
      </TabBar>
    </nav>
  );
}
