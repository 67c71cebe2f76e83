import { translate } from '@halyard/protocol';
import { type Browser, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { startOwnServer } from './servers/own-server.ts';
import { ID_PHOTO, registerAndSignIn, test as shared, uniqueIdNumber } from './support.ts';

/**
 * The operator console (issue 18) end to end, in Chromium at desktop size: the first administrator
 * bootstraps and enrols TOTP, creates compliance, finance and support operators (each enrols at first
 * sign-in); compliance approves a user's identity with the document open, and the view is in the audit
 * log; finance A approves a large withdrawal and is refused approving the four-eyes request alone,
 * finance B approves it; support replies to a ticket; the dashboard shows the ledger audit and the money core.
 * Run after `npm run build -w @halyard/admin` (the server serves the built console at /admin/).
 */

const ADMIN_TOKEN = 'console-e2e-admin-token';
const PASSWORD = 'console-e2e-password';
const FUND_PASSWORD = '135790';
const DESKTOP = {
  viewport: { width: 1440, height: 900 },
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
};

/**
 * This file's own demo server (servers/console-server.ts: its port, its data directory, no demo KYC
 * reviewer): bootstrapping an administrator retires the admin token that the shared server's specs use.
 */
const test = shared.extend<object, { consoleServer: string }>({
  consoleServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      // No local chain: an approved withdrawal waits for the signer.
      const server = await startOwnServer('console-server.ts', { ADMIN_TOKEN });
      try {
        const served = await fetch(`${server.url}/admin/`, { headers: { accept: 'text/html' } });
        if (!served.ok)
          throw new Error('the console is not built: run `npm run build -w @halyard/admin` first');
        await use(server.url);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker' },
  ],
});

test.use({ ...DESKTOP, baseURL: async ({ consoleServer }, use) => use(consoleServer) });

const STEP_MS = 30_000;
/** The last TOTP time step used per secret: the server accepts each step once per operator. */
const lastStep = new Map<string, number>();

/**
 * A code the server has not seen yet, from the same library it checks with (otplib): the current
 * step's, or the next one's (the server accepts one step either side). A third code within one
 * step waits for the clock, as a person waits for the app's next code.
 */
async function freshCode(secret: string): Promise<string> {
  const step = Math.max(Math.floor(Date.now() / STEP_MS), (lastStep.get(secret) ?? -1) + 1);
  await expect
    .poll(() => Math.floor(Date.now() / STEP_MS) >= step - 1, {
      message: 'the authenticator shows its next code',
      timeout: STEP_MS + 5_000,
      intervals: [1_000],
    })
    .toBe(true);
  lastStep.set(secret, step);
  return generate({ secret, epoch: (step * STEP_MS) / 1000 });
}

interface Operator {
  email: string;
  page: Page;
  secret: string;
}

/** Uncaught errors of the pages this file opens beside `page` (which support.ts watches). */
const pageErrors: string[] = [];

/** A page of its own (own session storage) at desktop size. */
async function newOperatorPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ ...DESKTOP, baseURL, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** After a sign-in that answered "enrol TOTP": the QR screen, a code, then the recovery codes shown once. */
async function enrol(page: Page): Promise<string> {
  await expect(page.getByText('Set up two-factor sign-in')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Authenticator QR code' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel('Authenticator code').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: /I have saved them/ }).click();
  return secret;
}

async function signInFirstTime(page: Page, email: string): Promise<Operator> {
  await page.goto('/admin/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const secret = await enrol(page);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  return { email, page, secret };
}

async function createOperator(admin: Page, email: string, role: string): Promise<void> {
  await admin.getByRole('menuitem', { name: 'Operators' }).click();
  await admin.getByRole('button', { name: 'New operator' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Role').click();
  await admin.locator(`.ant-select-item-option[title="${role}"]`).click();
  await dialog.getByLabel('First password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('row', { name: new RegExp(email) })).toContainText('No authenticator yet');
}

/** Opens an ActionButton's dialog in `scope`, types its reason and code when asked, confirms. */
async function act(
  page: Page,
  button: string,
  row: string,
  input: { reason?: string; secret?: string } = {},
) {
  await page
    .getByRole('row', { name: new RegExp(row) })
    .getByRole('button', { name: button })
    .click();
  const dialog = page.getByRole('dialog');
  if (input.reason) await dialog.getByLabel('Reason').fill(input.reason);
  if (input.secret) {
    await dialog.getByRole('textbox').first().click();
    await page.keyboard.type(await freshCode(input.secret));
  }
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  return dialog;
}

test('operators run the back office: bootstrap, roles with TOTP, KYC, four-eyes withdrawal, ticket, ledger audit', async ({
  page,
  browser,
  consoleServer,
}) => {
  test.setTimeout(240_000);
  // One step that waits longer than this is stuck, not slow.
  const stamp = Date.now();
  const emails = {
    admin: `admin-${stamp}@example.com`,
    compliance: `compliance-${stamp}@example.com`,
    financeA: `finance-a-${stamp}@example.com`,
    financeB: `finance-b-${stamp}@example.com`,
    support: `support-${stamp}@example.com`,
  };

  // 1. The first administrator, with the configured admin token; TOTP enrolment by QR code.
  await page.goto('/admin/');
  await expect(page.getByText('First administrator', { exact: true })).toBeVisible();
  await page.getByLabel('Admin token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
  await page.getByLabel('E-mail').fill(emails.admin);
  await page.getByLabel('Password (at least 12 characters)').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create the administrator' }).click();
  await enrol(page);
  await expect(page.getByTestId('operator-email')).toHaveText(emails.admin);
  // The admin token is retired for good.
  const again = await page.request.post('/admin/auth/bootstrap', {
    headers: { 'admin-token': ADMIN_TOKEN },
    data: { email: `second-${stamp}@example.com`, password: PASSWORD },
  });
  expect((await again.json()).code).not.toBe(200);

  // 2. The administrator creates the operators; each one enrols at the first sign-in.
  await createOperator(page, emails.compliance, 'Compliance');
  await createOperator(page, emails.financeA, 'Finance');
  await createOperator(page, emails.financeB, 'Finance');
  await createOperator(page, emails.support, 'Support');
  const compliance = await signInFirstTime(await newOperatorPage(browser, consoleServer), emails.compliance);
  // The menu shows what the role allows, nothing else.
  await expect(compliance.page.getByRole('menuitem', { name: 'KYC queue' })).toBeVisible();
  await expect(compliance.page.getByRole('menuitem', { name: 'Withdrawals' })).toHaveCount(0);
  await expect(compliance.page.getByRole('menuitem', { name: 'Operators' })).toHaveCount(0);

  // 3. A user submits an identity; compliance opens the document (logged) and approves it.
  const user = await newOperatorPage(browser, consoleServer);
  const { token } = await registerAndSignIn(user, 'console-user', consoleServer);
  const uploaded = await user.request.post('/user/img', {
    headers: { token },
    multipart: { imgurl: { name: 'id.png', mimeType: 'image/png', buffer: ID_PHOTO } },
  });
  const photoUrl = ((await uploaded.json()).data as { url: string }[])[0]?.url ?? '';
  const submitted = await user.request.post('/user/editRealName', {
    headers: { token },
    data: { name: 'Wang Wu', idNumber: uniqueIdNumber(), photoUrl },
  });
  expect((await submitted.json()).code).toBe(200);
  const userId = (
    (await (await user.request.get('/user/userInfo', { headers: { token } })).json()).data as {
      id: number;
    }
  ).id;

  await compliance.page.getByRole('menuitem', { name: 'KYC queue' }).click();
  const submission = compliance.page.getByRole('row', { name: /Wang Wu/ });
  await submission.getByRole('button', { name: 'Review' }).click();
  const viewer = compliance.page.getByRole('dialog');
  await expect(viewer.getByRole('img', { name: 'Identity document' })).toBeVisible();
  await viewer.getByRole('button', { name: 'Approve' }).click();
  await compliance.page.getByRole('dialog').last().getByRole('button', { name: 'Confirm' }).click();
  await expect(compliance.page.getByRole('row', { name: /Wang Wu/ })).toHaveCount(0);
  await compliance.page.getByText('Approved', { exact: true }).click();
  await expect(compliance.page.getByRole('row', { name: /Wang Wu/ })).toContainText(emails.compliance);
  expect(
    (await (await user.request.get('/user/userInfo', { headers: { token } })).json()).data.verification,
  ).toBe('succeeded');

  // The administrator finds compliance's look at the document in the audit log.
  await page.getByRole('menuitem', { name: 'Audit log' }).click();
  await page.getByPlaceholder('User ID').fill(String(userId));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(
    page.getByRole('row', { name: new RegExp(`${emails.compliance}.*view`) }).first(),
  ).toBeVisible();

  // 4. The user asks for a large withdrawal (2 × demo faucet: 2 BTC; 1.5 BTC is above the review
  // threshold and worth far more than the four-eyes limit).
  await user.request.post('/user/updatePassword', {
    headers: { token },
    data: { payPassword: FUND_PASSWORD, confirmPayPassword: FUND_PASSWORD },
  });
  for (let grant = 0; grant < 2; grant += 1) {
    expect((await (await user.request.post('/account/demoFaucet', { headers: { token } })).json()).code).toBe(
      200,
    );
  }
  const address = '0x52908400098527886E0F7030069857D2E4169EE7';
  const saved = await user.request.post('/account/addAddress', {
    headers: { token },
    data: { coin: 'BTC', chain: 56, address, remark: 'cold' },
  });
  expect((await saved.json()).code).toBe(200);
  const sent = await user.request.post('/account/sendCoinOrder', {
    headers: { token },
    data: { coin: 'BTC', chain: 56, address, number: '1.5', payPassword: FUND_PASSWORD },
  });
  expect((await sent.json()).code, (await sent.json()).msg).toBe(200);

  // Finance A approves it: a second operator must too. Approving their own request is refused.
  const financeA = await signInFirstTime(await newOperatorPage(browser, consoleServer), emails.financeA);
  await financeA.page.getByRole('menuitem', { name: 'Withdrawals' }).click();
  await act(financeA.page, 'Approve', '1\\.5', { secret: financeA.secret });
  await expect(financeA.page.getByText(/waits for a second operator/)).toBeVisible();
  await financeA.page.getByRole('menuitem', { name: 'Approvals' }).click();
  const ownRequest = await act(financeA.page, 'Approve', emails.financeA, { secret: financeA.secret });
  // The server's own words, as every locale has them (packages/protocol messages).
  await expect(ownRequest.getByRole('alert')).toHaveText(translate('en', 'approvals.selfApproval'));
  await ownRequest.getByRole('button', { name: 'Cancel' }).click();

  // Finance B approves: the withdrawal goes to the signer.
  const financeB = await signInFirstTime(await newOperatorPage(browser, consoleServer), emails.financeB);
  await financeB.page.getByRole('menuitem', { name: 'Approvals' }).click();
  await act(financeB.page, 'Approve', emails.financeA, { secret: financeB.secret });
  await expect(financeB.page.getByRole('row', { name: new RegExp(emails.financeA) })).toHaveCount(0);
  await financeB.page.getByText('Executed', { exact: true }).click();
  await expect(financeB.page.getByRole('row', { name: new RegExp(emails.financeA) })).toContainText(
    emails.financeB,
  );
  await financeB.page.getByRole('menuitem', { name: 'Withdrawals' }).click();
  await expect(financeB.page.getByRole('row', { name: /1\.5/ })).toHaveCount(0);

  // 5. Support replies to the user's ticket.
  const ticket = await user.request.post('/user/addOnline', {
    headers: { token },
    data: { title: 'Where is my withdrawal?', content: 'I asked for 1.5 BTC an hour ago.' },
  });
  expect((await ticket.json()).code).toBe(200);
  const support = await signInFirstTime(await newOperatorPage(browser, consoleServer), emails.support);
  await support.page.getByRole('menuitem', { name: 'Tickets' }).click();
  await support.page
    .getByRole('row', { name: /Where is my withdrawal/ })
    .getByRole('button', { name: 'Reply' })
    .click();
  await support.page.getByRole('dialog').getByLabel('Reply').fill('It was approved and is on its way.');
  await support.page.getByRole('button', { name: 'Send reply' }).click();
  await expect(support.page.getByRole('row', { name: /Where is my withdrawal/ })).toHaveCount(0);
  const answered = (await (await user.request.get('/user/onlineList', { headers: { token } })).json()).data;
  expect(JSON.stringify(answered)).toContain('It was approved and is on its way.');

  // 6. The dashboard shows the ledger audit, run against the sequenced core's state, and where the core stands.
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByTestId('ledger-audit-status')).toHaveText('Ledger audit: OK');
  await expect(page.getByTestId('projection-audit')).toContainText(
    "SQL compared with the sequenced core's state",
  );
  await expect(page.getByTestId('money-core')).toContainText('Journaled to');
  await page.getByTestId('money-core').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('dashboard.png'), fullPage: true });
  expect(pageErrors, "uncaught errors in the operators' pages").toEqual([]);
});
