import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { loginPath } from '../features/identity/redirect.ts';
import { useAuth } from '../shared/auth-store.ts';
import { toast } from '../shared/ui/toast.ts';
import { guard, type RouteDef } from './routes.ts';

function LoginRedirect({ from }: { from: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    toast(t('common.pleaseLogin', { ns: 'server' }));
  }, [t]);
  return <Navigate to={loginPath(from)} replace />;
}

/** Spec §2: a visitor on a login route hears "please log in" and goes to the login screen instead. */
export function Guarded({ route, children }: { route: RouteDef; children: ReactNode }) {
  const loggedIn = useAuth((state) => state.isLoggedIn);
  const location = useLocation();
  if (guard(route, loggedIn) === 'login') return <LoginRedirect from={location.pathname + location.search} />;
  return children;
}
