import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type App, createApp } from '../../app.ts';
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

export interface Harness {
  app: App;
  clock: ManualClock;
  config: Config;
  store: Store;
  close(): Promise<void>;
}

export async function startHarness(options: { rateLimits?: boolean; demo?: boolean } = {}): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-identity-'));
  // Demo mode off is set after loading: live mode asks other modules for real
  // credentials that these tests do not need.
  const config: Config = {
    ...loadConfig({ ...TEST_ENV, HALYARD_DATA_DIR: dataDir, ADMIN_TOKEN, PUBLIC_URL }),
    demo: options.demo ?? true,
  };
  const store = await openTestStore();
  const clock = new ManualClock();
  const app = await createApp({ config, store, clock, rateLimits: options.rateLimits ?? false });
  return {
    app,
    clock,
    config,
    store,
    async close() {
      await app.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

/** The newest code the dev outbox holds for a recipient, read the way a newcomer would: GET /dev/outbox. */
export async function latestCode(h: Harness, recipient: string): Promise<string> {
  const answer = await expectOk(get(h, `/dev/outbox?recipient=${encodeURIComponent(recipient)}`));
  const [newest] = answer.data as { body: string }[];
  const code = /\b(\d{6})\b/.exec(newest?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox for ${recipient}`);
  return code;
}

export async function requestCode(h: Harness, account: string, purpose: string): Promise<string> {
  await expectOk(get(h, `/user/getCode?account=${encodeURIComponent(account)}&purpose=${purpose}`));
  return latestCode(h, account.includes('@') ? account.toLowerCase() : `+86 ${account}`);
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
