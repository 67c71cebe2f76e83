import { expect, type Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base, dismissTips, injectTestWallet, registerAndSignIn, shot, test } from './support.ts';

/**
 * Issue 14 "The first hour": what a new user meets in their first visit, at
 * 390×844 (the config's viewport): the pair they tap is the pair they get,
 * a login returns them where they were going, a friend's referral link opens
 * registration, a reload of any screen gives the app, phone numbers of any
 * region, and the spot and convert screens' confirm steps.
 */

/** The same server by its other loopback name: wallet sign-in must work there too. */
const loopback = () => base().replace('//localhost:', '//127.0.0.1:');

/** Signs in with a fresh injected wallet from the login screen the guard sent us to. */
async function walletLogin(page: Page) {
  await page.getByTestId('wallet-login').click();
  await expect(page.getByText('Signed in with your wallet')).toBeVisible();
}

/** The session token the page keeps, for API calls as this user. */
const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token') ?? '');

test('a wallet login on 127.0.0.1 returns to the screen that asked for it, and every list opens the pair tapped', async ({
  page,
}) => {
  await injectTestWallet(page, privateKeyToAccount(generatePrivateKey()), { chainId: 56 });

  // The guard sends a visitor to log in, remembering where they were going.
  await page.goto(`${loopback()}/coinExchange`);
  await expect(page).toHaveURL(`${loopback()}/login?redirect=%2FcoinExchange`);
  await walletLogin(page);
  await expect(page).toHaveURL(`${loopback()}/coinExchange`);
  await expect(page.getByTestId('pair-picker')).toContainText('BTC/USDT');

  // Home's spot list: SOL opens SOL/USDT, and a reload keeps it.
  await page.goto(`${loopback()}/`);
  await dismissTips(page);
  await page.locator('.hy-market-row', { hasText: 'SOL' }).first().click();
  await expect(page).toHaveURL(`${loopback()}/coinExchange`);
  await expect(page.getByTestId('pair-picker')).toContainText('SOL/USDT');
  await shot(page, '140-home-sol-opens-sol');
  await page.reload();
  await expect(page.getByTestId('pair-picker')).toContainText('SOL/USDT');

  // Home's futures list: ETH opens the ETH contract.
  await page.goto(`${loopback()}/`);
  await page.getByRole('tab', { name: 'Futures' }).click();
  await page.locator('.hy-market-row', { hasText: 'ETH' }).first().click();
  await expect(page).toHaveURL(`${loopback()}/futures`);
  await expect(page.getByTestId('futures-drawer')).toContainText('ETH');
  await shot(page, '141-home-eth-opens-eth-futures');

  // Home's search entry leads to the coin search; a pair found there opens too.
  await page.goto(`${loopback()}/`);
  await page.getByTestId('search-link').click();
  await expect(page).toHaveURL(`${loopback()}/coinSearch`);
  await page.getByPlaceholder('Search').fill('eth');
  await shot(page, '142-coin-search');
  await page.locator('.hy-market-row', { hasText: 'ETH' }).first().click();
  await expect(page.getByTestId('pair-picker')).toContainText('ETH/USDT');
  // …and the trade screen's own search entry leads back to it.
  await page.getByTestId('search-link').click();
  await expect(page).toHaveURL(`${loopback()}/coinSearch`);
});

test("a friend's referral link opens registration with the invitation code filled in", async ({ page }) => {
  await injectTestWallet(page, privateKeyToAccount(generatePrivateKey()), { chainId: 56 });
  await page.goto(`${base()}/login`);
  await walletLogin(page);
  await expect(page).toHaveURL(`${base()}/`);

  const answer = await page.request.get(`${base()}/user/getInvitationUrl`, {
    headers: { token: await tokenOf(page) },
  });
  const { code, url } = (await answer.json()).data as { code: string; url: string };
  // The operator's public address (PUBLIC_URL), the app's own path: no "#/".
  expect(url).toBe(`${base()}/register?code=${code}`);

  const friend = await page
    .context()
    .browser()
    ?.newPage({ viewport: { width: 390, height: 844 } });
  if (!friend) throw new Error('no browser');
  await friend.goto(url);
  await expect(friend).toHaveURL(url);
  await expect(friend.getByTestId('invitation-code').locator('input')).toHaveValue(code);
  await friend.screenshot({ path: 'e2e/screenshots/143-referral-register.png' });
  await friend.close();
});

test('reloading a screen whose path is also an API prefix gives the app', async ({ page }) => {
  const response = await page.goto(`${base()}/ieo`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toContain('text/html');
  await expect(page.locator('.adm-nav-bar-title')).toBeVisible();
});

test('the area-code sheet searches every region, and a UK number is checked by the UK plan', async ({
  page,
}) => {
  await page.goto(`${base()}/register`);
  await page.getByText('Phone', { exact: true }).click();
  await page.getByTestId('area-code').click();
  await expect(page.locator('.hy-area-option')).not.toHaveCount(0);
  expect(await page.locator('.hy-area-option').count()).toBeGreaterThan(200);
  await page.getByTestId('area-search').locator('input').fill('united king');
  await expect(page.getByTestId('area-GB')).toBeVisible();
  await shot(page, '144-area-code-search');
  await page.getByTestId('area-GB').click();
  await expect(page.getByTestId('area-code')).toContainText('+44');

  // A mainland-style number is not a UK one: the message names the region's code.
  await page.getByTestId('account').locator('input').fill('13812345678');
  await page.getByRole('button', { name: 'Send code' }).click();
  const toast = page.locator('.adm-toast-main');
  await expect(toast).toHaveText('This is not a valid phone number for +44');
  // Toasts wrap between words: no word is split over two lines.
  const splitWords = await toast.evaluate((element) => {
    const text = element.querySelector('.adm-auto-center-content') ?? element;
    const node =
      Array.from(text.childNodes).find((child) => child.nodeType === Node.TEXT_NODE) ?? text.firstChild;
    if (!node?.textContent) return ['no text'];
    const split: string[] = [];
    for (const match of node.textContent.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
      if (lines.size > 1) split.push(match[0]);
    }
    return split;
  });
  expect(splitWords).toEqual([]);
  await shot(page, '145-phone-rule-toast');

  // A UK mobile passes the rule: the code is sent.
  await page.getByTestId('account').locator('input').fill('7911123456');
  await page.waitForTimeout(2100); // the previous toast has gone
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText('This is not a valid phone number')).toHaveCount(0);
});

test('spot: the slider follows the finger, and open orders are cancelled all at once after a confirm', async ({
  page,
}) => {
  const { token } = await registerAndSignIn(page, 'cancel-all');
  const headers = { token };
  expect((await (await page.request.post(`${base()}/account/demoFaucet`, { headers })).json()).code).toBe(
    200,
  );
  for (const price of ['1000', '1100']) {
    const placed = await page.request.post(`${base()}/trad/buyLimit`, {
      headers,
      data: { tradcoin: 'BTC', maincoin: 'USDT', price, number: '0.01' },
    });
    expect((await placed.json()).code).toBe(200);
  }

  await page.goto(`${base()}/coinExchange`);
  await dismissTips(page);
  await expect(page.getByTestId('open-orders').getByTestId('order-card')).toHaveCount(2);

  // A tap at the middle of the track is 50 %, not the 40 % mark beside it.
  const track = page.getByTestId('slider').locator('.adm-slider-track-container');
  const box = await track.boundingBox();
  if (!box) throw new Error('no slider track');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  // The slider's own marks, by exact name: the pair button's day change can read "+1.50%".
  const mark = (percent: string) =>
    page.getByTestId('slider').getByRole('button', { name: percent, exact: true });
  await expect(mark('50%')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('amount').locator('input')).not.toHaveValue('');
  await mark('75%').click();
  await expect(mark('75%')).toHaveAttribute('aria-pressed', 'true');
  await shot(page, '146-spot-slider-marks');

  await page.getByTestId('cancel-all-orders').click();
  await expect(page.locator('.adm-dialog')).toContainText('Cancel all 2 open orders in BTC/USDT?');
  await shot(page, '147-spot-cancel-all-confirm');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('2 orders cancelled')).toBeVisible();
  await expect(page.getByText('No open orders')).toBeVisible();
});

test('convert shows the amounts, rate, fee and the quote countdown before it exchanges', async ({ page }) => {
  const { token } = await registerAndSignIn(page, 'convert-confirm');
  await page.request.post(`${base()}/account/demoFaucet`, { headers: { token } });
  await page.goto(`${base()}/coinConvert`);
  await expect(page.getByTestId('convert-quote')).toBeVisible();
  await page.locator('.hy-field-box input').first().fill('100');
  // The play money has arrived: the rules check the amount against it before the confirm.
  await expect(page.getByText('Available 10,000.00000000')).toBeVisible();
  await page.getByTestId('convert-submit').click();
  const sheet = page.getByTestId('convert-confirm');
  await expect(sheet).toContainText('You pay');
  await expect(sheet).toContainText('100.00000000 USDT');
  await expect(sheet).toContainText('You receive');
  await expect(sheet).toContainText('Rate');
  await expect(sheet).toContainText('% in the rate');
  await expect(sheet.getByTestId('confirm-countdown')).toContainText(/\d+ ?s|Expired/);
  await shot(page, '148-convert-confirm');
  await page.getByTestId('convert-confirm-submit').click();
  await expect(page.getByText(/Converted: received/)).toBeVisible();
});
