import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normaliseIdCard } from '@halyard/rules';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type App, type AppOptions, createApp } from '../../app.ts';
import { ManualClock } from '../../clock.ts';
import { type Config, loadConfig } from '../../config.ts';
import { openTestStore, type Store } from '../../store/connect.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const PUBLIC_URL = 'https://halyard.test';
export const PASSWORD = 'secret123';

/**
 * Settings every test app shares: quiet logs, and argon2id at its floor cost so
 * the hundreds of registrations and logins in the suite do not spend minutes
 * hashing (passwords.test.ts checks the production cost separately).
 */
export const TEST_ENV = {
  LOG_LEVEL: 'silent',
  PASSWORD_HASH_MEMORY_KIB: '1024',
  PASSWORD_HASH_PASSES: '1',
} as const;

/** A real 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let idNumbers = 0;
/**
 * A valid 18-character ID number no other call in this process answers: one
 * ID number belongs to one account. Built as a 15-digit number (born in 1980
 * plus a day per thousand) brought to its 18-digit spelling.
 */
export function uniqueIdNumber(): string {
  const n = idNumbers++;
  const born = new Date(Date.UTC(1980, 0, 1) + Math.floor(n / 1000) * 86_400_000);
  const yymmdd = born.toISOString().slice(2, 10).replaceAll('-', '');
  return normaliseIdCard(`110105${yymmdd}${String(n % 1000).padStart(3, '0')}`);
}

export interface Harness {
  app: App;
  clock: ManualClock;
  config: Config;
  store: Store;
  /** What the app runs the money on: the sequenced core's directory, or SQL (none). */
  appOptions?: Pick<AppOptions, 'moneyCore'>;
  close(): Promise<void>;
}

/**
 * The two paths a moved module's suites run on (issue 19's cut-over):
 * `describe.each(MONEY_PATHS)('… on $on', ({ moneyCore }) => …)`.
 */
export const MONEY_PATHS = [
  { on: 'SQL', moneyCore: false },
  { on: 'the sequenced core', moneyCore: true },
] as const;

/**
 * A server restart: the app closed and created again on the same store,
 * clock and options (on the core, the state recovered from its journal). The
 * harness closes the new app. `whileDown` runs between the two, for what
 * happens while the server is down (the clock moving on).
 */
export async function restartApp(h: Harness, whileDown: () => void = () => {}): Promise<void> {
  await h.app.close();
  whileDown();
  h.app = await createApp({
    config: h.config,
    store: h.store,
    clock: h.clock,
    rateLimits: false,
    ...h.appOptions,
  });
}

/** The money on the sequenced core or on SQL: the core's journal and snapshots under the test's data directory. */
export function moneyCoreOptions(dataDir: string, moneyCore: boolean): Pick<AppOptions, 'moneyCore'> {
  return moneyCore ? { moneyCore: { dataDir: path.join(dataDir, 'core'), workerStore: null } } : {};
}

/**
 * A test app on a fresh store. `moneyCore`: the money on the sequenced core
 * (AppOptions.moneyCore), its journal and snapshots in the data directory,
 * projected on the test's own connection.
 */
export async function startHarness(
  options: {
    rateLimits?: boolean;
    demo?: boolean;
    moneyCore?: boolean;
    clusterOverview?: AppOptions['clusterOverview'];
  } = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-identity-'));
  // Demo mode off is set after loading: live mode asks other modules for real
  // credentials that these tests do not need.
  const config: Config = {
    ...loadConfig({ ...TEST_ENV, HALYARD_DATA_DIR: dataDir, ADMIN_TOKEN, PUBLIC_URL }),
    demo: options.demo ?? true,
  };
  const store = await openTestStore();
  const clock = new ManualClock();
  const appOptions = moneyCoreOptions(dataDir, options.moneyCore ?? false);
  const app = await createApp({
    config,
    store,
    clock,
    rateLimits: options.rateLimits ?? false,
    ...appOptions,
    ...(options.clusterOverview ? { clusterOverview: options.clusterOverview } : {}),
  });
  const harness: Harness = {
    app,
    clock,
    config,
    store,
    appOptions,
    async close() {
      // The app a test restarted, if it did.
      await harness.app.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

function envelope(response: LightMyRequestResponse): Envelope {
  return response.json() as Envelope;
}

export async function get(h: Harness, url: string, token?: string, headers: Record<string, string> = {}) {
  const response = await h.app.http.inject({
    method: 'GET',
    url,
    headers: { ...(token ? { token } : {}), ...headers },
  });
  return envelope(response);
}

export async function post(
  h: Harness,
  url: string,
  body: object,
  token?: string,
  headers: Record<string, string> = {},
) {
  const response = await h.app.http.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { ...(token ? { token } : {}), ...headers },
  });
  return envelope(response);
}

export async function expectOk(pending: Promise<Envelope>): Promise<Envelope> {
  const answer = await pending;
  expect(answer, answer.msg).toMatchObject({ code: 200 });
  return answer;
}

/** The code a demo `/user/getCode` answers (`data.demoCode`), read the way a newcomer would. */
export function demoCodeOf(answer: Envelope): string {
  const code = (answer.data as { demoCode?: unknown } | null)?.demoCode;
  if (typeof code !== 'string' || !/^\d{6}$/.test(code))
    throw new Error(`no demo code in ${JSON.stringify(answer)}`);
  return code;
}

/**
 * Asks for a code (`areaCode` for a phone, default 86) and answers the demo
 * code. A code for an existing account is shown only to its owner: pass the
 * owner's session `token`.
 */
export async function requestCode(
  h: Harness,
  account: string,
  purpose: string,
  options: { areaCode?: string; token?: string } = {},
): Promise<string> {
  const query = new URLSearchParams({
    account,
    purpose,
    ...(options.areaCode ? { areaCode: options.areaCode } : {}),
  });
  return demoCodeOf(await expectOk(get(h, `/user/getCode?${query}`, options.token)));
}

export interface Member {
  id: number;
  invitationCode: string;
  [field: string]: unknown;
}

/** Registers by email through the public routes and answers the session token and member. */
export async function registerByEmail(
  h: Harness,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<{ token: string; member: Member }> {
  const code = await requestCode(h, email, 'register');
  const answer = await expectOk(
    post(h, '/member/register', {
      account: email,
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreed: true,
      ...extra,
    }),
  );
  return answer.data as { token: string; member: Member };
}

/** A multipart/form-data body with one file field. */
export function multipart(field: string, filename: string, bytes: Buffer, contentType: string) {
  const boundary = '----halyard-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function upload(
  h: Harness,
  token: string,
  filename: string,
  bytes: Buffer,
  contentType = 'image/png',
) {
  const body = multipart('imgurl', filename, bytes, contentType);
  const response = await h.app.http.inject({
    method: 'POST',
    url: '/user/img',
    payload: body.payload,
    headers: { ...body.headers, token },
  });
  return envelope(response);
}

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;
