import { expect, type Page } from '@playwright/test';
import {
  base,
  completeDepositSteps,
  dismissTips,
  ID_PHOTO,
  registerAndSignIn,
  shot,
  test,
} from './support.ts';

/** A verified user (KYC, fund password) with play USDT moved to the c2c wallet that fiat sales take from. */
async function verifiedWithFiatUsdt(page: Page, prefix: string, usdt: string): Promise<string> {
  const { token } = await registerAndSignIn(page, prefix);
  await completeDepositSteps(page, token, '246810');
  const faucet = await page.request.post(`${base()}/account/demoFaucet`, { headers: { token } });
  expect((await faucet.json()).code).toBe(200);
  const moved = await page.request.post(`${base()}/account/c2cTransfer`, {
    headers: { token },
    data: { coin: 'USDT', number: usdt, from: 'spot', to: 'fiat' },
  });
  expect((await moved.json()).code).toBe(200);
  return token;
}

/** Applies on the Merchant tab, has an operator approve it, and comes back to the tab as a merchant. */
async function becomeMerchant(page: Page, token: string): Promise<void> {
  await page.goto(`${base()}/otc`);
  await dismissTips(page);
  await page.getByRole('tab', { name: 'Merchant' }).click();
  await page.getByTestId('otc-apply').click();
  const info = await (await page.request.get(`${base()}/user/userInfo`, { headers: { token } })).json();
  const decided = await page.request.post(`${base()}/admin/fiat/merchants/decide`, {
    headers: { 'admin-token': process.env.E2E_ADMIN_TOKEN ?? '' },
    data: { userId: info.data.id, approve: true, reason: 'KYC and deposit checked' },
  });
  expect((await decided.json()).code).toBe(200);
  await page.reload();
  await dismissTips(page);
  await page.getByRole('tab', { name: 'Merchant' }).click();
}

test('a user buys USDT for CNY from the DEMO merchant: matched, pays, uploads the screenshot, receives the coin', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token } = await registerAndSignIn(page, 'fiat');
  await completeDepositSteps(page, token, '246810');

  await page.goto(`${base()}/otc`);
  await dismissTips(page);
  // The rules before they bite (AMENDMENTS A6): the window and the ban ladder.
  await expect(page.getByTestId('otc-rules')).toContainText('15 min → 30 min → 60 min → 240 min');
  await expect(page.getByTestId('otc-offer')).toContainText('7.25 CNY');
  await expect(page.getByTestId('otc-offer')).toContainText('100 – 50000 CNY');
  // The demo USDT/CNY price floats with the index (issue 16 item 1): the screen says so.
  await expect(page.getByTestId('otc-offer-floats')).toHaveText(
    'Floats with the index; your order locks the price',
  );

  // Out of the single-order limits: the rule's message, nothing placed.
  await page.getByTestId('otc-amount').locator('input').fill('50');
  await page.getByTestId('otc-submit').click();
  await expect(page.getByText('The minimum is 100')).toBeVisible();

  await page.getByTestId('otc-amount').locator('input').fill('725');
  await expect(page.getByTestId('otc-number')).toContainText('100 USDT');
  await shot(page, 'fiat-01-buy');
  await page.getByTestId('otc-submit').click();

  const order = page.getByTestId('otc-order');
  await expect(order).toBeVisible();
  await expect(page.getByTestId('otc-order-state')).toHaveText('To be paid');
  await expect(page.getByTestId('otc-countdown')).toHaveText(/^(20:00|19:[0-5]\d)$/);
  await expect(order).toContainText('DEMO');
  await expect(page.getByTestId('otc-payee')).toContainText('Demo Bank of China');
  await expect(page.getByTestId('otc-payee').getByRole('button', { name: /Copy/ }).first()).toBeVisible();

  // The order's chat: a message to the merchant, kept as evidence.
  await page.getByTestId('otc-chat-text').locator('input').fill('Sent from my ICBC account');
  await page.getByTestId('otc-chat-send').click();
  await expect(page.getByTestId('otc-chat')).toContainText('You');
  await expect(page.getByTestId('otc-chat')).toContainText('Sent from my ICBC account');

  // "I have paid" needs the screenshot first (spec §5).
  await page.getByTestId('otc-paid').click();
  await expect(page.getByText('Please upload the payment screenshot')).toBeVisible();
  await page
    .getByTestId('otc-screenshot')
    .setInputFiles({ name: 'paid.png', mimeType: 'image/png', buffer: ID_PHOTO });
  await expect(page.locator('.hy-otc-upload img')).toBeVisible();
  await shot(page, 'fiat-02-order');
  await page.getByTestId('otc-paid').click();
  await expect(page.getByTestId('otc-order-state')).toHaveText('Paid');

  // The DEMO merchant confirms receipt a few seconds later: the coin is released to the c2c wallet.
  await expect(page.getByTestId('otc-order-state')).toHaveText('Completed', { timeout: 20_000 });
  await shot(page, 'fiat-03-completed');
  const balance = await (
    await page.request.get(`${base()}/account/c2cBalance`, { headers: { token }, params: { coin: 'USDT' } })
  ).json();
  expect(balance.data.usable).toBe('100');
});

test('a user sells USDT to the DEMO merchant: payee details checked, coin in escrow, the merchant pays, the user releases', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const token = await verifiedWithFiatUsdt(page, 'fiat-sell', '500');

  await page.goto(`${base()}/otc`);
  await dismissTips(page);
  await page.getByRole('tab', { name: 'Sell' }).click();
  await expect(page.getByTestId('otc-offer')).toContainText('7.15 CNY');
  await page.getByTestId('otc-amount').locator('input').fill('715');
  await expect(page.getByTestId('otc-number')).toContainText('100 USDT · c2c wallet: 500 USDT usable');
  await page.getByTestId('otc-submit').click();
  await expect(page.getByText('Please enter the payee name')).toBeVisible();
  await page.getByTestId('otc-payee-payeeName').locator('input').fill('Li Si');
  await page.getByTestId('otc-payee-cardNumber').locator('input').fill('6222020000001111');
  await page.getByTestId('otc-payee-bank').locator('input').fill('ICBC');
  await shot(page, 'fiat-04-sell');
  await page.getByTestId('otc-submit').click();

  await expect(page.getByTestId('otc-order-state')).toHaveText('To be paid');
  await expect(page.getByTestId('otc-payee')).toContainText('ICBC');
  // The DEMO merchant pays a few seconds later; then the seller releases the escrow.
  await expect(page.getByTestId('otc-order-state')).toHaveText('Paid', { timeout: 20_000 });
  // Were something wrong, the appeal sheet names the evidence each reason needs (issue 16 item 5).
  await expect(page.getByTestId('otc-evidence')).toContainText(
    "Screenshot of your bank statement covering the order's time",
  );
  await page.getByTestId('otc-appeal-kind').getByText('I received the wrong amount').click();
  await expect(page.getByTestId('otc-evidence')).toContainText('The amount that arrived');
  await shot(page, 'fiat-05-appeal-evidence');
  await page.getByTestId('otc-release').click();
  await expect(page.getByTestId('otc-order-state')).toHaveText('Completed');
  await shot(page, 'fiat-05-sold');
  const balance = await (
    await page.request.get(`${base()}/account/c2cBalance`, { headers: { token }, params: { coin: 'USDT' } })
  ).json();
  expect(balance.data.usable).toBe('400');
});

test('the third cancelled order within a day suspends fiat trading: the user sees the rule, reason and end', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token } = await registerAndSignIn(page, 'fiat-ban');
  await completeDepositSteps(page, token, '246810');
  await page.goto(`${base()}/otc`);
  await dismissTips(page);
  for (let cancelled = 1; cancelled <= 3; cancelled += 1) {
    await page.getByTestId('otc-amount').locator('input').fill('725');
    await page.getByTestId('otc-submit').click();
    await expect(page.getByTestId('otc-order-state')).toHaveText('To be paid');
    await page.getByTestId('otc-cancel').click();
    await expect(page.getByTestId('otc-order-state')).toHaveText('Cancelled');
    await page.getByRole('button', { name: '← Back' }).click();
  }
  const ban = page.getByTestId('otc-ban');
  await expect(ban).toContainText('Fiat trading suspended until');
  await expect(ban).toContainText('3 orders cancelled within a day');
  await shot(page, 'fiat-06-ban');
  await page.getByTestId('otc-amount').locator('input').fill('725');
  await page.getByTestId('otc-submit').click();
  await expect(
    page.getByText(/Fiat trading is suspended until .*: 3 orders cancelled within a day/),
  ).toBeVisible();
});

test('a merchant publishes a floating ad whose coin is held in escrow, and lowers its amount', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const token = await verifiedWithFiatUsdt(page, 'fiat-merchant', '1000');
  const usable = async () =>
    (
      await (
        await page.request.get(`${base()}/account/c2cBalance`, {
          headers: { token },
          params: { coin: 'USDT' },
        })
      ).json()
    ).data.usable as string;

  await becomeMerchant(page, token);

  const field = (label: string) => page.locator('.hy-field', { hasText: label }).locator('input');
  await page.getByTestId('otc-price-type').getByText('Floating price').click();
  await field('Premium over the index (%)').fill('5');
  await field('Single-order minimum (fiat)').fill('100');
  await field('Single-order maximum (fiat)').fill('1000');
  await field('Coin available').fill('200');
  await field('Payee name').fill('Li Si');
  await field('Card number').fill('6222020000001111');
  await field('Bank').fill('ICBC');
  await page.getByRole('button', { name: 'Publish' }).click();
  const merchant = page.getByTestId('otc-merchant');
  // 7.2 CNY per USDT + 5 %: the ad floats, and its 200 USDT are held beside the 500 USDT deposit.
  await expect(merchant).toContainText('7.56 CNY (floating, index +5%)');
  await expect(merchant).toContainText('200 USDT');
  expect(await usable()).toBe('300');

  await page.locator('[data-testid^="otc-ad-amount-"]').locator('input').fill('150');
  await page.getByRole('button', { name: 'Set amount' }).click();
  await expect(merchant).toContainText('150 USDT');
  expect(await usable()).toBe('350');
  await shot(page, 'fiat-07-merchant-ad');
});

test("a merchant's ad with two methods, a 30-minute window and terms: the buyer reads them before ordering, picks WeChat and pays within 30 minutes", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const token = await verifiedWithFiatUsdt(page, 'fiat-terms', '1000');
  await becomeMerchant(page, token);

  const field = (label: string, within = page.locator('body')) =>
    within.locator('.hy-field', { hasText: label }).locator('input');
  await field('Price (fiat per coin)').fill('7.05');
  await field('Single-order minimum (fiat)').fill('100');
  await field('Single-order maximum (fiat)').fill('1000');
  await field('Coin available').fill('200');
  await page.getByTestId('otc-ad-methods').getByText('WeChat Pay').click();
  const bank = page.getByTestId('otc-ad-payee-bank');
  await field('Payee name', bank).fill('Li Si');
  await field('Card number', bank).fill('6222020000001111');
  await field('Bank', bank).fill('ICBC');
  const wechat = page.getByTestId('otc-ad-payee-wechat');
  await field('Payee name', wechat).fill('Li Si');
  await field('WeChat account', wechat).fill('lisi-pay');
  await field('WeChat pay code', wechat).fill('/uploads/lisi-code.png');
  // Out of the window's bounds: the shared rule's message, nothing published.
  await page.getByTestId('otc-ad-window').locator('input').fill('90');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('The payment window must be 10 to 60 whole minutes')).toBeVisible();
  await page.getByTestId('otc-ad-window').locator('input').fill('30');
  const terms = '<b>No third-party payments.</b>\nPut the order number in the note.';
  await page.getByTestId('otc-ad-terms').locator('textarea:not([readonly])').fill(terms);
  await shot(page, 'fiat-08-merchant-ad-form');
  await page.getByRole('button', { name: 'Publish' }).click();
  const merchant = page.getByTestId('otc-merchant');
  await expect(merchant).toContainText('Bank card / WeChat Pay · Pay within 30 min');

  // A buyer in another browser reads the ad's window and terms before ordering, as text.
  const buyerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const buyer = await buyerContext.newPage();
  const { token: buyerToken } = await registerAndSignIn(buyer, 'fiat-terms-buyer');
  await completeDepositSteps(buyer, buyerToken, '246810');
  await buyer.goto(`${base()}/otc`);
  await dismissTips(buyer);
  await buyer.getByTestId('otc-amount').locator('input').fill('705');
  await buyer.locator('.adm-selector').getByText('WeChat Pay').click();
  const quote = buyer.getByTestId('otc-quote');
  await expect(quote).toContainText('Li Si');
  await expect(quote).toContainText('7.05 CNY');
  await expect(buyer.getByTestId('otc-quote-window')).toHaveText('Pay within 30 min');
  await expect(quote.getByTestId('otc-terms')).toContainText('<b>No third-party payments.</b>');
  await expect(quote.locator('b', { hasText: 'No third-party' })).toHaveCount(0);
  await shot(buyer, 'fiat-09-quote-terms');
  await buyer.getByTestId('otc-submit').click();
  await expect(buyer.getByTestId('otc-order-state')).toHaveText('To be paid');
  await expect(buyer.getByTestId('otc-countdown')).toHaveText(/^(30:00|29:[0-5]\d)$/);
  await expect(buyer.getByTestId('otc-order')).toContainText('within 30 minutes');
  await expect(buyer.getByTestId('otc-payee')).toContainText('WeChat Pay');
  await expect(buyer.getByTestId('otc-payee')).toContainText('lisi-pay');
  await expect(buyer.getByTestId('otc-payee')).not.toContainText('6222020000001111');
  await expect(buyer.getByTestId('otc-order').getByTestId('otc-terms')).toContainText(
    'Put the order number in the note.',
  );
  await shot(buyer, 'fiat-10-order-terms');
  await buyer.getByTestId('otc-cancel').click();
  await expect(buyer.getByTestId('otc-order-state')).toHaveText('Cancelled');
  await buyerContext.close();

  // Away: the house's prices stand again for the tests after this one.
  await merchant.locator('.adm-switch').first().click();
  await expect(merchant.locator('.adm-switch-checked')).toHaveCount(0);
});
