import { type App, createApp } from '../../app.ts';
import type { Clock } from '../../clock.ts';
import { loadConfig } from '../../config.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import { TEST_ENV } from '../identity/test-support.ts';

export const ADMIN_TOKEN = 'content-support-admin-token';

/**
 * The app and its store, for tests that must reach under the HTTP layer, and
 * the last message mailed to each address (the app mails codes in both modes).
 */
export type TestApp = App & { store: Store; mailbox: Map<string, string> };

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
  const mailbox = new Map<string, string>();
  const mailer = { send: async (to: string, _subject: string, text: string) => void mailbox.set(to, text) };
  const app = await createApp({
    config,
    store,
    clock: options.clock,
    rateLimits: false,
    messengers: { mailer, sms: null },
  });
  return {
    ...app,
    store,
    mailbox,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * Registers `email` the way a person does (the code mailed by /user/getCode,
 * then /member/register) and answers the session token.
 */
export async function signUp(app: TestApp, email: string): Promise<string> {
  const sent = await app.http.inject({
    method: 'GET',
    url: '/user/getCode',
    query: { account: email, purpose: 'register' },
  });
  const code = /\b(\d{6})\b/.exec(app.mailbox.get(email) ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}: ${sent.body}`);
  const registered = await app.http.inject({
    method: 'POST',
    url: '/member/register',
    payload: { account: email, code, password: 'abc12345', confirmPassword: 'abc12345', agreed: true },
  });
  const token: unknown = registered.json().data?.token;
  if (typeof token !== 'string') throw new Error(`register failed: ${registered.body}`);
  return token;
}
