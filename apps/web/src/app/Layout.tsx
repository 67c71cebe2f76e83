import { useEffect, useMemo, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useUserInfo } from '../features/identity/api.ts';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt.tsx';
import { setNavigator } from '../shared/navigation.ts';
import { SESSION_KEYS, session } from '../shared/storage.ts';
import { DemoBadge, GlobalSpinner } from './Chrome.tsx';
import { findRoute, type RouteDef, showsTabBar, slideDirection } from './routes.ts';
import { useStatusBarStyle } from './status-bar.ts';
import { TabBarNav } from './TabBarNav.tsx';

/** Spec §2: the page title is always the product name. */
export const PRODUCT_NAME = 'Halyard';

export function Layout() {
  const location = useLocation();
  const navigate = useNavigate();
  const route = findRoute(location.pathname);
  const previous = useRef<RouteDef | null>(null);
  // Spec §7: the signed-in user's info is fetched at app start (and kept fresh in the session store).
  useUserInfo();
  useStatusBarStyle(route.name);
  // Decided once per navigation, against the screen we came from.
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed per location on purpose
  const slide = useMemo(() => slideDirection(previous.current, route), [location.key]);

  useEffect(() => {
    setNavigator((to, options) => navigate(to, options));
  }, [navigate]);

  useEffect(() => {
    previous.current = route;
    document.title = PRODUCT_NAME;
    session.set(SESSION_KEYS.lastRoute, route.name);
  }, [route]);

  return (
    <div className="hy-app">
      <div
        key={location.key}
        className={`hy-page${showsTabBar(route) ? ' with-tabbar' : ''}${slide === 'none' ? '' : ` hy-slide-${slide}`}`}
        data-route={route.name}
      >
        <Outlet />
      </div>
      <TabBarNav route={route} />
      <DemoBadge />
      <GlobalSpinner />
      <UpdatePrompt />
    </div>
  );
}
