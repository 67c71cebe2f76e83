import { type App, createApp } from '../../app.ts';
import type { Clock } from '../../clock.ts';
import { loadConfig } from '../../config.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import { TEST_ENV } from '../identity/test-support.ts';

export const ADMIN_TOKEN = 'content-support-admin-token';

/** The app and its store, for tests that must reach under the HTTP layer. */
export type TestApp = App & { store: Store };

/** A fresh app on a fresh store; `demo` decides whether the demo seeds run. */
export async function startApp(options: {
  demo: boolean;
  clock?: Clock;
  /** More settings, as environment variables. */
  env?: NodeJS.ProcessEnv;
}): Promise<TestApp> {
  const store = await openTestStore();
  // Loaded as a demo and then switched: only the content seeds should differ,
  // not the settings other modules require outside demo mode (chain keys, feeds).
  const config = { ...loadConfig({ ...TEST_ENV, ADMIN_TOKEN, ...options.env }), demo: options.demo };
  const app = await createApp({ config, store, clock: options.clock, rateLimits: false });
  return {
    ...app,
    store,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * Registers `email` the way a person does in demo mode (the code shown by
 * /user/getCode, then /member/register) and answers the session token.
 */
export async function signUp(app: App, email: string): Promise<string> {
  const sent = await app.http.inject({
    method: 'GET',
    url: '/user/getCode',
    query: { account: email, purpose: 'register' },
  });
  const code: unknown = sent.json().data?.demoCode;
  if (typeof code !== 'string') throw new Error(`getCode answered no demo code: ${sent.body}`);
  const registered = await app.http.inject({
    method: 'POST',
    url: '/member/register',
    payload: { account: email, code, password: 'abc12345', confirmPassword: 'abc12345', agreed: true },
  });
  const token: unknown = registered.json().data?.token;
  if (typeof token !== 'string') throw new Error(`register failed: ${registered.body}`);
  return token;
}
