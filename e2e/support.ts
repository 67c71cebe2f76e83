import { type APIRequestContext, expect, type Page, test as playwrightTest } from '@playwright/test';
import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { normaliseIdCard } from '../packages/rules/src/index.ts';

/**
 * Playwright's `test`, failing any test whose page met an uncaught error or
 * logged a console error: a user must never meet one (issue #4). Every spec
 * imports `test` from here.
 */
export const test = playwrightTest.extend<{ noConsoleErrors: undefined }>({
  noConsoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        // Chromium's own line for a failed request names no URL; the response below does.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          errors.push(`console.error: ${message.text()}`);
        }
      });
      // A 400 carries a refusal the screen shows (a test may type bad input on purpose) and a
      // 401 ends a session; a missing file or a server failure is always a fault.
      page.on('response', (response) => {
        if (response.status() === 404 || response.status() >= 500) {
          errors.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
        }
      });
      await use(undefined);
      expect(errors, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export const base = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is set by global-setup.ts');
  return url;
};

export const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/screenshots/${name}.png` });

/**
 * Reads the tip popups home shows (TipPopups.tsx): the tips the server has
 * for this browser's session (`/user/tipsList`) that it has not marked read
 * (`readTips`, keyed `one:<id>` / `all:<id>`). Counting them first, instead
 * of waiting to see whether one appears, keeps every call from waiting out a
 * timeout. Elsewhere than home, only a popup already open is read. The
 * button reads Got it, 我知道了, 了解しました or Понятно.
 */
export async function dismissTips(page: Page) {
  const gotIt = page.getByRole('button', { name: /Got it|我知道了|了解しました|Понятно/ }).first();
  const due = new URL(page.url()).pathname === '/' ? await unreadTips(page) : Number(await gotIt.isVisible());
  for (let shown = 0; shown < due; shown += 1) {
    await gotIt.click();
    await gotIt.waitFor({ state: 'hidden' });
  }
}

async function unreadTips(page: Page): Promise<number> {
  const { token, read } = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    read: localStorage.getItem('readTips'),
  }));
  const answer = await page.request.get(`${new URL(page.url()).origin}/user/tipsList`, {
    headers: token ? { token } : {},
  });
  const tips = (await answer.json()).data as Record<'oneTips' | 'allTips', { id: number } | null>;
  const readKeys = new Set<string>(JSON.parse(read ?? '[]'));
  return (['one', 'all'] as const).filter((kind) => {
    const tip = tips[`${kind}Tips`];
    return tip !== null && !readKeys.has(`${kind}:${tip.id}`);
  }).length;
}

/**
 * Picks a language on the settings screen, as a user does: the language row,
 * then the language by its own name; the screen's title turns to `settingsTitle`.
 */
export async function chooseLanguage(page: Page, name: string, settingsTitle: string) {
  await page.goto(`${base()}/setting`);
  await page.getByTestId('language').click();
  await page.getByText(name, { exact: true }).click();
  await expect(page.locator('.adm-nav-bar-title')).toHaveText(settingsTitle);
  await expect(page.getByTestId('language')).toContainText(name);
  await expect(page.locator('.adm-popup-body')).toBeHidden(); // the picker has slid away
}

let newcomers = 0;

/**
 * A newcomer's own address, as a trusted proxy would forward it
 * (global-setup.ts): TEST-NET-3 addresses, one per newcomer of this run.
 */
export function newcomerHeaders(): Record<string, string> {
  newcomers += 1;
  return { 'x-forwarded-for': `203.0.113.${newcomers % 250}` };
}

/**
 * The code a demo `/user/getCode` answers to the one who asked (no email or
 * SMS is configured), as the register screen shows it.
 */
export async function demoCode(
  request: APIRequestContext,
  account: string,
  purpose: string,
  headers: Record<string, string> = newcomerHeaders(),
  origin = base(),
): Promise<string> {
  const sent = await (
    await request.get(`${origin}/user/getCode`, { params: { account, purpose }, headers })
  ).json();
  const code: unknown = sent.data?.demoCode;
  expect(code, `a demo code for ${account}: ${sent.msg}`).toMatch(/^\d{6}$/);
  return code as string;
}

/**
 * A new user registered by email with the demo code (as journey.spec.ts does
 * through the screen), signed in in this page. `origin`: a spec's own server
 * instead of the shared one (fiat-expiry.spec.ts).
 */
export async function registerAndSignIn(page: Page, prefix: string, origin = base()) {
  const email = `${prefix}-${Date.now()}@example.com`;
  const headers = newcomerHeaders();
  const code = await demoCode(page.request, email, 'register', headers, origin);
  const registered = await page.request.post(`${origin}/member/register`, {
    headers,
    data: { account: email, code, password: 'abc12345', confirmPassword: 'abc12345', agreed: true },
  });
  const { token, member } = (await registered.json()).data as { token: string; member: unknown };
  await page.addInitScript(
    ([sessionToken, user]) => {
      localStorage.setItem('token', sessionToken);
      localStorage.setItem('userInfo', user);
      localStorage.setItem('isLogin', 'true');
    },
    [token, JSON.stringify(member)] as const,
  );
  return { email, token };
}

/** A 1×1 PNG: small enough that the browser sends it without recompressing. */
export const ID_PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A valid ID number no other test run uses (one ID number belongs to one
 * account): a 15-digit number with a random birth day and sequence, brought
 * to its 18-digit spelling.
 */
export function uniqueIdNumber(): string {
  const born = new Date(Date.UTC(1960, 0, 1) + Math.floor(Math.random() * 14_000) * 86_400_000);
  const yymmdd = born.toISOString().slice(2, 10).replaceAll('-', '');
  const sequence = String(Math.floor(Math.random() * 1000)).padStart(3, '0');
  return normaliseIdCard(`110105${yymmdd}${sequence}`);
}

/**
 * What a deposit needs (spec §5, §6), done through the API for a user
 * registered by email: the ID photo and identity verification, approved by
 * the demo reviewer a few seconds later, then the fund password (on `origin`'s server).
 */
export async function completeDepositSteps(page: Page, token: string, fundPassword: string, origin = base()) {
  const uploaded = await page.request.post(`${origin}/user/img`, {
    headers: { token },
    multipart: { imgurl: { name: 'id.png', mimeType: 'image/png', buffer: ID_PHOTO } },
  });
  const photoUrl = ((await uploaded.json()).data as { url: string }[])[0]?.url ?? '';
  const submitted = await page.request.post(`${origin}/user/editRealName`, {
    headers: { token },
    data: { name: 'Li Si', idNumber: uniqueIdNumber(), photoUrl },
  });
  expect((await submitted.json()).code).toBe(200);
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`${origin}/user/userInfo`, { headers: { token } })).json()).data
          ?.verification,
      { message: 'the demo reviewer approves', timeout: 20_000 },
    )
    .toBe('succeeded');
  const saved = await page.request.post(`${origin}/user/updatePassword`, {
    headers: { token },
    data: { payPassword: fundPassword, confirmPayPassword: fundPassword },
  });
  expect((await saved.json()).code).toBe(200);
}

/** A demo server's local EVM chain as viem describes chains. */
export const localChain = (id: number, rpcUrl: string) =>
  defineChain({
    id,
    name: `local ${id}`,
    nativeCurrency: { name: 'Play', symbol: 'PLAY', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

export interface TestWalletOptions {
  chainId: number;
  /** The local chain the wallet sends through; without it the wallet only signs messages. */
  rpcUrl?: string;
}

interface TransactionRequest {
  to: Address;
  data?: Hex;
  value?: Hex;
}

/**
 * Injects `window.ethereum` backed by a viem local account in the test
 * process: it answers accounts and chain, signs messages, and signs and sends
 * transactions to the local chain; any other read goes to that chain. Returns
 * the methods the page called, in order, and the hashes of what it sent.
 */
export async function injectTestWallet(page: Page, account: PrivateKeyAccount, options: TestWalletOptions) {
  const methods: string[] = [];
  const sent: Hex[] = [];
  const transport = options.rpcUrl ? http(options.rpcUrl) : null;
  const chain = localChain(options.chainId, options.rpcUrl ?? '');
  const sender = transport ? createWalletClient({ account, chain, transport }) : null;
  const reader = transport ? createPublicClient({ chain, transport }) : null;
  await page.exposeFunction('e2eWallet', async (method: string, params: unknown[] = []) => {
    methods.push(method);
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account.address];
    if (method === 'eth_chainId') return `0x${options.chainId.toString(16)}`;
    if (method === 'personal_sign') return account.signMessage({ message: String(params[0]) });
    if (!sender || !reader) throw new Error(`unsupported ${method}`);
    if (method === 'eth_sendTransaction') {
      const { to, data, value } = params[0] as TransactionRequest;
      const hash = await sender.sendTransaction({ to, data, value: value ? BigInt(value) : 0n });
      sent.push(hash);
      return hash;
    }
    return reader.request({ method, params } as Parameters<typeof reader.request>[0]);
  });
  await page.addInitScript(() => {
    const w = window as unknown as {
      ethereum: unknown;
      e2eWallet(method: string, params?: unknown[]): Promise<unknown>;
    };
    w.ethereum = {
      request: ({ method, params }: { method: string; params?: unknown[] }) => w.e2eWallet(method, params),
      on() {},
      removeListener() {},
    };
  });
  return { methods, sent };
}

/** Stops or restarts a local ganache chain's block production, to hold a state the test looks at. */
export async function setMining(rpcUrl: string, on: boolean) {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: on ? 'miner_start' : 'miner_stop', params: [] }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
}
