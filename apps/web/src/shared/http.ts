import { currentLocale, i18n } from '../i18n/index.ts';
import { createApiClient } from './api.ts';
import { useAuth } from './auth-store.ts';
import { takeFirstAnswer } from './first-answers.ts';
import { spinner } from './loading.ts';
import { goTo } from './navigation.ts';
import { toast } from './ui/toast.ts';

/** The app's api client, wired to the session, the locale, the toasts and the router. */
export const api = createApiClient({
  // The GETs a screen starts with may be answered inside the page already (first-answers.ts).
  fetch: (input, init) => {
    const answer = typeof input === 'string' ? takeFirstAnswer(input, init) : null;
    return answer ? Promise.resolve(answer) : window.fetch(input, init);
  },
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
