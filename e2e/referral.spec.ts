import { expect, type Page } from '@playwright/test';
import { base, dismissTips, newcomerHeaders, registerAndSignIn, shot, test } from './support.ts';

/**
 * Issue 17 done-when: user A invites B by link; B registers (the code filled
 * in), gets play money and trades spot against the demo market maker; A sees
 * B in the team and the commissions in the coins B paid the fees in (BTC, a
 * buyer's fee being taken from what it receives; HAL once B pays fees in HAL),
 * with the tier used; A saves the poster and the commission CSV. Then both screens in
 * English, Chinese and Russian at 390×844. Also: late binding and kickback, and
 * a token launch's promotion rebate in the inviter's commission history.
 */

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token') ?? '');

/** B opens A's link in a browser of their own (their own address, as a newcomer's) and registers there. */
async function registerByLink(page: Page, link: string, code: string): Promise<Page> {
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    extraHTTPHeaders: newcomerHeaders(),
  });
  const friend = await context.newPage();
  await friend.goto(link);
  await dismissTips(friend);
  await expect(friend.getByTestId('invitation-code').locator('input')).toHaveValue(code);
  await friend.getByTestId('account').locator('input').fill(`invitee-${Date.now()}@example.com`);
  await friend.getByTestId('send-code').click();
  await expect(friend.getByTestId('code').locator('input')).toHaveValue(/^\d{6}$/);
  await friend.getByTestId('password').locator('input').fill('abc12345');
  await friend.getByTestId('confirm-password').locator('input').fill('abc12345');
  await friend.getByTestId('terms').click();
  await friend.getByTestId('register-submit').click();
  await expect(friend).toHaveURL(`${base()}/`);
  return friend;
}

/** A market buy of 0.01 BTC on the spot screen (it fills against the demo market maker); the confirm names the fee's coin. */
async function buyBtcAtMarket(friend: Page, feeIn: string) {
  await friend.goto(`${base()}/coinExchange`);
  await dismissTips(friend);
  await expect(friend.getByTestId('book-asks').locator('button').first()).toBeVisible();
  await friend.getByTestId('order-style').click();
  await friend.locator('.adm-action-sheet-button-item', { hasText: 'Market' }).click();
  await friend.getByTestId('amount').locator('input').fill('0.01');
  await friend.getByTestId('place-order').click();
  await expect(friend.getByTestId('confirm-fee-coin')).toHaveText(feeIn);
  await friend.getByRole('button', { name: 'Confirm' }).click();
  await expect(friend.getByText('Order placed')).toBeVisible();
}

/** B trades twice: fees in BTC, then, with HAL bought and fee deduction on, in HAL at the discount. */
async function tradeWithAndWithoutDeduction(friend: Page) {
  const headers = { token: await tokenOf(friend) };
  const faucet = await friend.request.post(`${base()}/account/demoFaucet`, { headers });
  expect((await faucet.json()).code).toBe(200);
  await buyBtcAtMarket(friend, 'BTC');

  const hal = await friend.request.post(`${base()}/trad/buyMarket`, {
    headers,
    data: { tradcoin: 'HAL', maincoin: 'USDT', number: '100' },
  });
  expect((await hal.json()).code).toBe(200);
  await friend.goto(`${base()}/inviteFriends`);
  await friend.getByTestId('fee-deduction').click();
  await expect(friend.getByText('Fees are now paid in HAL when you hold enough')).toBeVisible();
  await expect(friend.getByTestId('fee-deduction')).toHaveAttribute('aria-checked', 'true');
  await buyBtcAtMarket(friend, 'HAL, 10% off (BTC if HAL is short)');

  // B's record: the last BTC buy paid its fee in HAL.
  await friend.getByTestId('record-link').click();
  const last = friend.getByTestId('exchange-record').getByTestId('order-card').first();
  await expect(last).toContainText('BTC/USDT');
  await expect(last.getByTestId('order-fee')).toHaveText(/^ · Fee [\d.]+ HAL$/);
  await friend.screenshot({ path: 'e2e/screenshots/176-record-fee-in-hal.png' });
}

async function showIn(page: Page, locale: string) {
  await page.evaluate((lang) => localStorage.setItem('lang', lang), locale);
}

test('A invites B by link; B trades; A sees B, the commission in its coin with the tier, and saves the poster', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerAndSignIn(page, 'inviter');
  await page.goto(`${base()}/`);
  await dismissTips(page);
  // Home's invite banner leads to the invite screen.
  await page.getByTestId('invite-banner').click();
  await expect(page).toHaveURL(`${base()}/inviteFriends`);
  const code = (await page.getByTestId('invitation-code').textContent()) ?? '';
  const link = (await page.getByTestId('invitation-link').textContent()) ?? '';
  expect(link).toBe(`${base()}/register?code=${code}`);
  await expect(page.getByTestId('referral-tier')).toContainText('Tier 1');
  await expect(page.getByTestId('next-tier')).toContainText('500');
  await expect(page.getByTestId('reward-rules')).toContainText('10%');
  await expect(page.getByTestId('reward-rules')).toContainText(
    'credited to your spot wallet every 60 seconds',
  );

  const friend = await registerByLink(page, link, code);
  await tradeWithAndWithoutDeduction(friend);
  const friendId = await friend.evaluate(
    () => JSON.parse(localStorage.getItem('userInfo') ?? '{}').id as number,
  );
  await friend.context().close();

  // The team: B, direct; B's fees earned A commissions at tier 1, 10 %.
  await page.goto(`${base()}/myTeam`);
  await expect(page.getByTestId('team-size')).toHaveText('1');
  await expect(page.getByTestId('team-member')).toHaveCount(1);
  await expect(page.getByTestId('team-member')).toContainText('Direct');
  // The search finds B by user id, and nobody by an id outside the team.
  const search = page.getByTestId('team-search').locator('input');
  await search.fill(String(friendId));
  await search.press('Enter');
  await expect(page.getByTestId('team-member')).toHaveCount(1);
  await search.fill('99999999');
  await search.press('Enter');
  await expect(page.getByText('No team member has this user ID')).toBeVisible();
  await expect(page.getByTestId('team-member')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Commissions' }).click();
  const commission = page.getByTestId('commission').first();
  await expect(async () => {
    await page.reload();
    await expect(commission).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(commission.getByTestId('commission-amount')).toHaveText(/^0\.\d{8} (BTC|HAL)$/);
  await expect(commission.getByTestId('commission-amount')).not.toHaveText(/^0\.00000000/);
  await expect(commission.getByTestId('commission-tier')).toHaveText('Tier 1 · 10%');
  await expect(commission).toContainText('Spot');
  // Worked out with the fee, credited by the payout sweep within a minute: pending, or credited by now.
  await expect(commission.getByTestId('commission-credit')).toHaveText(/^(Pending|Credited .+)$/);
  // Each coin a fee was paid in: HAL (the HAL bought, and the BTC bought with fee deduction), BTC.
  await page.getByTestId('commission-filters').getByText('HAL', { exact: true }).click();
  await expect(commission.getByTestId('commission-amount')).toHaveText(/^0\.\d{8} HAL$/);
  await expect(page.getByTestId('commission').filter({ hasText: 'BTC' })).toHaveCount(0);
  await page.getByTestId('commission-filters').getByText('BTC', { exact: true }).click();
  await expect(commission.getByTestId('commission-amount')).toHaveText(/^0\.\d{8} BTC$/);
  // Dates: nothing was earned from tomorrow on.
  const dates = page.getByTestId('commission-filters').locator('input[type=date]');
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = (date: Date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  await dates.first().fill(day(tomorrow));
  await expect(page.getByText('No commissions match these filters')).toBeVisible();
  await dates.first().fill(day(new Date()));
  await expect(commission).toBeVisible();

  const csv = page.waitForEvent('download');
  await page.getByTestId('commissions-csv').click();
  const exported = await csv;
  expect(exported.suggestedFilename()).toBe('halyard-commissions.csv');
  await exported.saveAs('e2e/screenshots/170-commissions.csv');

  await page.getByRole('tab', { name: 'Income' }).click();
  await expect(page.getByTestId('income-total-BTC')).toContainText('BTC');

  // The poster: the link as a QR code, saved as a PNG.
  await page.goto(`${base()}/inviteFriends`);
  await expect(page.getByTestId('poster').locator('canvas')).toBeVisible();
  const poster = page.waitForEvent('download');
  await page.getByTestId('poster-save').click();
  const saved = await poster;
  expect(saved.suggestedFilename()).toBe(`halyard-invite-${code}.png`);
  await saved.saveAs('e2e/screenshots/171-invite-poster.png');

  for (const locale of ['en', 'cn', 'ru']) {
    await showIn(page, locale);
    await page.goto(`${base()}/inviteFriends`);
    await expect(page.getByTestId('reward-rules')).toBeVisible();
    await shot(page, `172-invite-friends-${locale}`);
    await page.getByTestId('reward-rules').scrollIntoViewIfNeeded();
    await shot(page, `173-invite-friends-rules-${locale}`);
    await page.goto(`${base()}/myTeam`);
    await expect(page.getByTestId('team-member')).toHaveCount(1);
    await shot(page, `174-my-team-${locale}`);
    await page.goto(`${base()}/myTeam?tab=commissions`);
    await expect(page.getByTestId('commission').first()).toBeVisible();
    await shot(page, `175-my-team-commissions-${locale}`);
  }
});

test('a user without an inviter binds a code once, and gives back part of their rate, never more than it', async ({
  page,
  browser,
}) => {
  const inviterPage = await browser.newPage();
  const inviter = await registerAndSignIn(inviterPage, 'late-inviter');
  const invitation = await inviterPage.request.get(`${base()}/user/getInvitationUrl`, {
    headers: { token: inviter.token },
  });
  const { code } = (await invitation.json()).data as { code: string };
  await inviterPage.close();

  await registerAndSignIn(page, 'late-invitee');
  await page.goto(`${base()}/inviteFriends`);
  await dismissTips(page);
  await expect(page.getByTestId('bind-inviter')).toContainText('You can do this once, until');
  await page.getByTestId('bind-code').locator('input').fill(code);
  await page.getByTestId('bind-inviter').getByRole('button', { name: 'Bind' }).click();
  await expect(page.getByText('Your inviter is bound')).toBeVisible();
  await expect(page.getByTestId('inviter')).toContainText('Invited by');
  await expect(page.getByTestId('bind-inviter')).toHaveCount(0);

  const kickback = page.getByTestId('kickback-input').locator('input');
  await kickback.fill('15');
  await page.getByTestId('kickback-save').click();
  await expect(page.getByText('You can give back at most your own rate of 10%')).toBeVisible();
  await kickback.fill('2.5');
  await page.getByTestId('kickback-save').click();
  await expect(page.getByText('Share-back saved')).toBeVisible();
  await expect(page.getByText('Now: 2.5%.')).toBeVisible();
  await shot(page, '177-invite-bound-and-kickback');
});

test("a token launch's promotion rebate reaches the inviter and shows in their commission history", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const inviter = await registerAndSignIn(page, 'ieo-inviter');
  const invitation = await page.request.get(`${base()}/user/getInvitationUrl`, {
    headers: { token: inviter.token },
  });
  const { code } = (await invitation.json()).data as { code: string };
  const friendPage = await browser.newPage();
  const friend = await registerAndSignIn(friendPage, 'ieo-friend');
  const headers = { token: friend.token };
  expect(
    (await (await friendPage.request.post(`${base()}/referral/bind`, { headers, data: { code } })).json())
      .code,
  ).toBe(200);
  await friendPage.request.post(`${base()}/account/demoFaucet`, { headers, data: {} });

  // A commit-mode sale with a 10 % rebate, ending in 10 s: the rebate is paid when the tokens are distributed.
  const now = Date.now();
  const created = await page.request.post(`${base()}/admin/ieo/projects`, {
    headers: { 'admin-token': 'e2e-admin-token' },
    data: {
      coin: 'EREB',
      name: 'E2E rebate sale',
      mode: 'commit',
      startTime: now,
      endTime: now + 10_000,
      total: '1000',
      tokenDecimals: 0,
      payCoins: [{ paycoin: 'USDT', price: '1' }],
      minNumber: '1',
      maxNumber: '600',
      vesting: { kind: 'tranches', cliffDays: 1, tranches: 1, intervalDays: 0 },
      rebate: '0.1',
    },
  });
  const project = (await created.json()).data as { id: number };
  const committed = await friendPage.request.post(`${base()}/ieo/addIeoOrder`, {
    headers,
    data: { id: project.id, paycoin: 'USDT', number: '200' },
  });
  expect((await committed.json()).code).toBe(200);
  await friendPage.close();

  await page.goto(`${base()}/myTeam?tab=commissions`);
  await dismissTips(page);
  const row = page.getByTestId('commission').first();
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('Token launch', { timeout: 1_000 });
  }).toPass({ timeout: 40_000 });
  await expect(row).toContainText('Paid for tokens');
  await expect(row).toContainText('200.00000000 USDT');
  await expect(row.getByTestId('commission-tier')).toHaveText('10%');
  await expect(row.getByTestId('commission-amount')).toHaveText('20.00000000 USDT');
  // A launch's rebate is paid from the proceeds at once, not by the payout sweep.
  await expect(row.getByTestId('commission-credit')).toHaveText(/^Credited /);
  await shot(page, '178-my-team-ieo-rebate');
});
