import { currentLocale, i18n } from '../i18n/index.ts';
import { createApiClient } from './api.ts';
import { useAuth } from './auth-store.ts';
import { spinner } from './loading.ts';
import { goTo } from './navigation.ts';
import { toast } from './ui/toast.ts';

/** The app's api client, wired to the session, the locale, the toasts and the router. */
export const api = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  token: () => useAuth.getState().token,
  locale: () => currentLocale(),
  toast,
  networkErrorText: () => i18n.t('common.requestFailed', { ns: 'server' }),
  spinner,
  logout() {
    useAuth.getState().signOut();
    goTo('/', { replace: true });
  },
});
