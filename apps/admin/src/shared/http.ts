import { currentLocale } from '../i18n/index.ts';
import { createApi } from './api.ts';
import { session } from './session.ts';

/** The console's api client, wired to the session and the chosen language. */
export const api = createApi({
  token: session.token,
  locale: currentLocale,
  signedOut: session.signOut,
});
