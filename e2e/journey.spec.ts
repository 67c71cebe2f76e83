import { expect } from '@playwright/test';
import { privateKeyToAccount } from 'viem/accounts';
import {
  base,
  chooseLanguage,
  dismissTips,
  ID_PHOTO,
  injectTestWallet,
  registerAndSignIn,
  shot,
  test,
  uniqueIdNumber,
} from './support.ts';

test('a visitor sees home, the DEMO badge, switches to Chinese and is stopped on /balances', async ({
  page,
}) => {
  await page.goto(`${base()}/`);
  await expect(page.getByTestId('demo-badge')).toBeVisible();
  await expect(page).toHaveTitle('Halyard');
  await dismissTips(page);
  await expect(page.getByTestId('banners').locator('img').first()).toBeVisible();
  await expect(page.getByTestId('notice-ticker')).not.toContainText('No announcements');
  await shot(page, '01-home-visitor');

  // A notice opens in the right-side popup.
  await page.getByTestId('notice-ticker').locator('button').first().click();
  await expect(page.getByTestId('notice-detail')).toBeVisible();
  await page.waitForTimeout(500); // the slide-in
  await shot(page, '02-notice-popup');
  await page.getByRole('button', { name: 'Close' }).click();

  await page.goto(`${base()}/setting`);
  await page.getByTestId('language').click();
  await page.getByText('简体中文').click();
  await expect(page.locator('.adm-nav-bar-title')).toHaveText('设置');
  await page.goto(`${base()}/`);
  await expect(page.locator('.hy-tabbar')).toContainText('首页');
  await expect(page.getByTestId('invite-banner')).toBeVisible();
  await shot(page, '03-home-cn');

  await page.locator('.hy-tabbar').getByText('资产').click();
  await expect(page.getByText('请先登录')).toBeVisible();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fbalances$/);
  await shot(page, '04-login-required-cn');

  await page.goto(`${base()}/balances`);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fbalances$/);
  await expect(page.getByText('请先登录')).toBeVisible();
});

test('a user registers with the demo code shown on the screen and lands logged in', async ({ page }) => {
  const email = `e2e-${Date.now()}@example.com`;
  await page.goto(`${base()}/login`);
  await shot(page, '11-login');
  await page.goto(`${base()}/register`);
  await dismissTips(page);
  await page.getByTestId('account').locator('input').fill(email);
  await page.getByTestId('send-code').click();
  await expect(page.getByTestId('send-code')).toContainText(/Resend in/);

  // Demo mode sends no email: the code is shown to this browser alone, marked DEMO, and filled in.
  await expect(page.getByTestId('demo-code')).toHaveText(
    /^DEMO code: \d{6}\. Demo mode sends no email or SMS$/,
  );
  const shown = (await page.getByTestId('demo-code').textContent())?.match(/\d{6}/)?.[0];
  await expect(page.getByTestId('code').locator('input')).toHaveValue(shown ?? 'no code');
  await page.getByTestId('password').locator('input').fill('abc12345');
  await page.getByTestId('confirm-password').locator('input').fill('abc12345');
  await page.getByTestId('register-submit').click();
  // The terms are required first.
  await expect(page.locator('.adm-toast-main')).toBeVisible();
  await page.getByTestId('terms').click();
  await shot(page, '05-register-filled');
  await page.getByTestId('register-submit').click();

  await expect(page).toHaveURL(`${base()}/`);
  await dismissTips(page);
  await page.goto(`${base()}/my`);
  await expect(page.getByTestId('profile')).toContainText(email);
  await shot(page, '06-my-logged-in');

  await page.goto(`${base()}/securityCenter`);
  await expect(page.getByText(email)).toBeVisible();
  await shot(page, '07-security-center');

  await page.goto(`${base()}/balances`);
  await expect(page.getByTestId('total-usdt')).toBeVisible();
  await shot(page, '08-balances');

  // A help ticket: the browser checks it with the server's own rule and words, then it is filed.
  await page.goto(`${base()}/helpCenter`);
  await page.locator('.adm-tabs-tab', { hasText: 'New ticket' }).click();
  await page.getByPlaceholder('What is it about?').fill('Deposit question');
  await page.getByPlaceholder('Describe the problem in 10 to 200 characters').fill('Too short');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('The description must be 10-200 characters')).toBeVisible();
  await page
    .getByPlaceholder('Describe the problem in 10 to 200 characters')
    .fill('Where do I find my deposit address?');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('ticket')).toContainText('Deposit question');
  await expect(page.getByTestId('ticket')).toContainText('Waiting');
  await shot(page, '12-help-ticket');

  // Identity verification: the photo goes up as multipart field imgurl, then the form.
  await page.goto(`${base()}/idAuth`);
  await page.getByPlaceholder('As on your ID document').fill('Zhang San');
  await page.getByPlaceholder('15 or 18 characters').fill(uniqueIdNumber());
  const uploaded = page.waitForResponse((response) => response.url().endsWith('/user/img'));
  const photo = { name: 'id.png', mimeType: 'image/png', buffer: ID_PHOTO };
  await page.locator('input[type=file]').setInputFiles(photo);
  expect((await (await uploaded).json()).data[0].url).toMatch(/^\/uploads\//);
  await expect(page.locator('.adm-image-uploader-cell-mask')).toHaveCount(0);
  await shot(page, '13-id-auth-filled');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(`${base()}/my`);
  await expect(page.getByTestId('profile')).toContainText('Under review');

  // Every other screen of this part, signed in, for a look.
  const screens = [
    'idAuth',
    'helpCenter',
    'aboutUs',
    'setting',
    'modifyLoginPass',
    'modifyPayPass',
    'bindPhone',
    'bindEmail',
    'notice',
    'coinSearch',
  ];
  for (const [index, name] of screens.entries()) {
    await page.goto(`${base()}/${name}`);
    await expect(page.locator('.adm-nav-bar-title')).not.toBeEmpty();
    await page.waitForTimeout(400);
    await shot(page, `${String(20 + index).padStart(2, '0')}-${name}`);
  }
});

test('a wallet user signs in with a signed message (SIWE), no approval asked', async ({ page }) => {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const { methods } = await injectTestWallet(page, account, { chainId: 56 });

  await page.goto(`${base()}/`);
  await dismissTips(page);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await expect(page.getByTestId('wallet-address')).toBeVisible();
  await expect(page.getByText('Signed in with your wallet')).toBeVisible();
  await shot(page, '09-home-wallet');
  expect(methods).toEqual(['eth_requestAccounts', 'eth_chainId', 'personal_sign']);

  await page.goto(`${base()}/my`);
  await expect(page.getByTestId('profile')).toContainText(`${account.address.slice(0, 6)}`);
  await shot(page, '10-my-wallet');
});

/** What a screen must read in one language: spot trade and balances words, the local currency's sign. */
interface LanguageCheck {
  code: string;
  name: string;
  settings: string;
  logout: string;
  logoutConfirm: string;
  confirm: string;
  totalAssets: string;
  exchangeWallet: string;
  buy: string;
  sell: string;
  openOrders: string;
  up: string;
  long: string;
  home: string;
  balances: string;
  pleaseLogin: string;
  login: string;
  /** A local-currency estimate as the language writes it (JPY, RUB). */
  localValue: RegExp;
}

const JAPANESE: LanguageCheck = {
  code: 'jp',
  name: '日本語',
  settings: '設定',
  logout: 'ログアウト',
  logoutConfirm: 'この端末からログアウトしますか？',
  confirm: '確認',
  totalAssets: '総資産',
  exchangeWallet: '現物',
  buy: '買い',
  sell: '売り',
  openOrders: '未約定注文',
  up: '上昇',
  long: 'ロング',
  home: 'ホーム',
  balances: '資産',
  pleaseLogin: 'ログインしてください',
  login: 'ログイン',
  localValue: /^≈ ¥[\d,]+\.\d{2}$/,
};

const RUSSIAN: LanguageCheck = {
  code: 'ru',
  name: 'Русский',
  settings: 'Настройки',
  logout: 'Выйти',
  logoutConfirm: 'Выйти на этом устройстве?',
  confirm: 'Подтвердить',
  totalAssets: 'Всего активов',
  exchangeWallet: 'Спот',
  buy: 'Купить',
  sell: 'Продать',
  openOrders: 'Открытые ордера',
  up: 'Вверх',
  long: 'Лонг',
  home: 'Главная',
  balances: 'Активы',
  pleaseLogin: 'Пожалуйста, войдите',
  login: 'Войти',
  localValue: /^≈ [\d\s]+,\d{2}\s₽$/,
};

/** Visits the main screens in the chosen language, checks their words and screenshots each. */
async function readScreensIn(page: import('@playwright/test').Page, language: LanguageCheck, first: number) {
  const name = (index: number, screen: string) => `${first + index}-${language.code}-${screen}`;
  await chooseLanguage(page, language.name, language.settings);
  await expect(page.getByTestId('logout')).toHaveText(language.logout);
  await shot(page, name(0, 'setting'));

  await page.goto(`${base()}/`);
  await dismissTips(page);
  await expect(page.locator('.hy-tabbar')).toContainText(language.home);
  await expect(page.locator('.hy-market-row .hy-sub').first()).toHaveText(language.localValue);
  await shot(page, name(1, 'home'));

  await page.goto(`${base()}/balances`);
  await expect(page.locator('.hy-total-label')).toContainText(language.totalAssets);
  await expect(page.locator('.adm-tabs-tab').first()).toHaveText(language.exchangeWallet);
  // The total's local-currency estimate is in the language's currency, at the server's rate.
  await expect(page.getByTestId('total-local')).toHaveText(language.localValue);
  await shot(page, name(2, 'balances'));

  await page.goto(`${base()}/coinExchange`);
  await expect(page.getByTestId('book-bids').locator('button').first()).toBeVisible();
  await expect(page.getByText(language.buy, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(language.sell, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(language.openOrders).first()).toBeVisible();
  await shot(page, name(3, 'spot'));

  await page.goto(`${base()}/futures`);
  await expect(page.getByTestId('futures-book')).toBeVisible();
  await expect(page.getByText(language.long).first()).toBeVisible();
  await shot(page, name(4, 'futures'));

  await page.goto(`${base()}/cycle`);
  await expect(page.getByTestId('cycle-up')).toHaveText(language.up);
  await expect(page.getByTestId('cycle-local')).toHaveText(language.localValue);
  await shot(page, name(5, 'cycle'));

  await page.goto(`${base()}/my`);
  await expect(page.getByTestId('profile')).toBeVisible();
  await shot(page, name(6, 'my'));
}

test('a user reads the app in Japanese, then Russian, chosen in settings, and logs out', async ({ page }) => {
  test.setTimeout(120_000);
  await registerAndSignIn(page, 'languages');
  await page.goto(`${base()}/balances`);
  await dismissTips(page);
  await page.getByTestId('faucet').click();
  await expect(page.getByTestId('total-usdt')).not.toHaveText('0.0000');

  await readScreensIn(page, JAPANESE, 70);
  await readScreensIn(page, RUSSIAN, 80);

  // Log out from the settings screen, in Russian, with its confirmation.
  await page.goto(`${base()}/setting`);
  await page.getByTestId('logout').click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(RUSSIAN.logoutConfirm);
  await page.waitForTimeout(400); // the dialog's fade-in
  await shot(page, '87-ru-logout-confirm');
  await confirm.getByRole('button', { name: RUSSIAN.confirm }).click();
  await expect(page).toHaveURL(`${base()}/`);
  await expect(page.locator('.hy-tabbar')).toContainText(RUSSIAN.home);
  // In the app, not by a new page load (which would run the signed-in init script again).
  await page.locator('.hy-tabbar').getByText(RUSSIAN.balances).click();
  await expect(page.getByText(RUSSIAN.pleaseLogin)).toBeVisible();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fbalances$/);
  await expect(page.getByTestId('login-submit')).toHaveText(RUSSIAN.login);
  await shot(page, '88-ru-login-after-logout');
});
